package dev.makeroom.core.room;

import dev.makeroom.core.accounting.FitCheck;
import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodColumns;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.placement.Conflicts;
import dev.makeroom.core.placement.KeptApart;
import dev.makeroom.core.placement.PlacementState;
import dev.makeroom.core.placement.PodPlacement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * "Make room for pod P on node N" as a value: what is missing ({@code deficit} in resources,
 * {@code needs} in counts of matching pods), the pods that must go ({@code forced}), the pods that may
 * go by {@link Tier} ({@code byTier}, indexed by the tier's ordinal), and what is out of reach and why
 * ({@link #outOfReach}, asked of {@code who} about the node's {@code pods} only when it is shown).
 * Or an {@code obstacle}: why no set of victims on N can work, before any search. {@link RoomMaker}
 * solves it. When the pods are a node's own, {@code columns} are its {@link PodColumns} and the
 * ordinary tier is {@link PodRows} of them, so the checks before a search read the columns rather
 * than the pods (else {@code columns} is null).
 */
public record NodeProblem(String node, Obstacle obstacle, Resources deficit, List<CountNeed> needs,
                          Set<String> forced, List<List<PodInfo>> byTier, Tier firstTier,
                          List<PodInfo> pods, Eligibility who, List<String> notes,
                          Function<PodInfo, List<DisruptionBudget>> budgets, QueueRules rules,
                          PodColumns columns) {

    /** Every tier a victim may come from, in order (one list: {@code Tier.values()} copies its array at every call). */
    static final List<Tier> TIERS = Arrays.stream(Tier.values()).filter(Tier::reachable).toList();

    /** Why no victim set on the node can work. */
    public record Obstacle(InfeasibleReason reason, String detail) {
    }

    /**
     * Poses the problem for {@code pending} on the node named {@code nodeName}; {@code rules} are
     * the queue laws for that pod (or off), {@code interPod} its inter-pod constraints on a node.
     */
    public static NodeProblem pose(ClusterSnapshot snapshot, PodInfo pending, String nodeName, QueueRules rules,
                                   Function<NodeInfo, NodeConstraints> interPod) {
        return pose(snapshot, pending, nodeName, rules, interPod, Set.of(), Map.of());
    }

    /**
     * As above, with the pods of {@code keptWhole} kept and those of {@code goWith} (uid to why) made to
     * go: one way of treating the node's gangs (kept running, or broken with every member here evicted).
     */
    public static NodeProblem pose(ClusterSnapshot snapshot, PodInfo pending, String nodeName, QueueRules rules,
                                   Function<NodeInfo, NodeConstraints> interPod, Set<String> keptWhole,
                                   Map<String, String> goWith) {
        NodeInfo node = snapshot.node(nodeName);
        if (node == null) {
            return blocked(nodeName, InfeasibleReason.UNKNOWN_NODE, "not in makeroom's view");
        }
        NodeConstraints constraints = interPod.apply(node);
        if (constraints instanceof NodeConstraints.Unmodelled u) {
            return blocked(nodeName, InfeasibleReason.UNMODELLED_CONSTRAINT, "not modelled: " + u.what());
        }
        if (constraints instanceof NodeConstraints.Impossible i) {
            return blocked(nodeName, InfeasibleReason.INTER_POD_CONSTRAINT, i.why());
        }
        NodeConstraints.Shaping placement = withForced((NodeConstraints.Shaping) constraints, goWith);
        Resources deficit = FitCheck.deficit(node.allocatable(),
                NodeUsage.requestedFor(node, pending, NodeUsage.homeOf(snapshot, pending)), pending.requests());
        Eligibility.Preempting who = Eligibility.toPreempt(pending, snapshot, rules).on(nodeName);
        return pose(nodeName, node.pods(), node.columns(), pending, keptWhole.isEmpty() ? who : who.keeping(keptWhole),
                placement, deficit, snapshot::budgetsCovering, rules);
    }

    private static NodeConstraints.Shaping withForced(NodeConstraints.Shaping placement, Map<String, String> goWith) {
        if (goWith.isEmpty()) {
            return placement;
        }
        Map<String, String> forced = new HashMap<>(goWith);
        forced.putAll(placement.forced()); // a pod that must go for the pod's own placement says so first
        return new NodeConstraints.Shaping(forced, placement.needs(), placement.notes());
    }

    /**
     * Poses the problem of making room for the pod of {@code placement} (the placement engine for it on
     * a state) on {@code node} by disturbing the pods {@code who} allows (the rescheduler: pods that may
     * move). Pods the pod shares a host port with, or that required anti-affinity keeps apart from it
     * on one node (the engine's pre-filter says which), must go; wider constraints are the caller's to
     * prove once the pods have gone.
     */
    public static NodeProblem pose(PodPlacement placement, NodeInfo node, Eligibility who) {
        PlacementState state = placement.state();
        PodInfo pending = placement.pod();
        List<PodInfo> pods = state.podsOn(node);
        Map<String, String> apart = new HashMap<>();
        for (KeptApart kept : placement.keptApart(node)) {
            if (PodAffinityTerm.nodeLocal(kept.topologyKey()) && node.name().equals(kept.pod().nodeName())) {
                apart.put(kept.pod().uid(), "required anti-affinity on one node");
            }
        }
        NodeConstraints.Shaping onNode = new NodeConstraints.Shaping(apart, List.of(), List.of());
        Resources deficit = FitCheck.deficit(node.allocatable(), state.requestedFor(node, pending), pending.requests());
        return pose(node.name(), pods, null, pending, who, onNode, deficit, state.snapshot()::budgetsCovering,
                QueueRules.off());
    }

    /** {@code columns}: the pods' own, when they are a node's (may be null). */
    private static NodeProblem pose(String nodeName, List<PodInfo> pods, PodColumns columns, PodInfo pending,
                                    Eligibility who, NodeConstraints.Shaping placement, Resources deficit,
                                    Function<PodInfo, List<DisruptionBudget>> budgets, QueueRules rules) {
        // posed for every candidate node of a preemption: nearly every pod is an ordinary candidate,
        // so that tier (its rows, with columns) is sized once and the rest are made only when a pod
        // needs them; with columns, a pod is read only when asked what they do not hold
        int n = pods.size();
        List<PodInfo> ordinaryPods = columns == null ? new ArrayList<>(n) : null;
        int[] ordinaryRows = columns == null ? null : new int[n];
        int ordinary = 0;
        List<PodInfo> originators = null;
        List<PodInfo> optedOut = null;
        Set<String> forced = null;
        Tier firstTier = Tier.ORDINARY;
        Map<String, String> forcedByPlacement = placement.forced();
        boolean portsToShare = !pending.hostPorts().isEmpty();
        for (int i = 0; i < n; i++) {
            PodInfo pod = pods.get(i);
            Protection protection = columns == null ? who.protectionOf(pod) : who.protectionOf(columns, i, pod);
            Tier tier = who.tierOf(pod, protection);
            if (tier == Tier.ORDINARY && ordinaryRows != null) {
                ordinaryRows[ordinary++] = i;
            } else if (tier == Tier.ORDINARY) {
                ordinaryPods.add(pod);
            } else if (tier == Tier.ORIGINATORS) {
                originators = added(originators, pod);
            } else if (tier == Tier.OPTED_OUT_LAST_RESORT) {
                optedOut = added(optedOut, pod);
            }
            String conflict = portsToShare
                    ? Conflicts.sharedHostPort(pending, pod).map(port -> "host port " + port).orElse(null) : null;
            if (conflict == null && !forcedByPlacement.isEmpty()) { // most nodes: none, and no lookup per pod
                conflict = forcedByPlacement.get(pod.uid());
            }
            if (conflict != null && !tier.reachable()) {
                return blocked(nodeName, InfeasibleReason.CONFLICT_WITH_PROTECTED_POD,
                        conflict + " with " + pod.ref() + " (" + protection + ")");
            }
            if (conflict != null) {
                if (forced == null) {
                    forced = new HashSet<>();
                }
                forced.add(pod.uid());
                firstTier = tier.compareTo(firstTier) > 0 ? tier : firstTier;
            }
        }
        return new NodeProblem(nodeName, null, deficit, placement.needs(),
                forced == null ? Set.of() : Collections.unmodifiableSet(forced),
                List.of(ordinaryRows != null ? new PodRows(pods, ordinaryRows, ordinary)
                                : Collections.unmodifiableList(ordinaryPods), readOnly(originators), readOnly(optedOut)), // Tier's order
                firstTier,
                pods, who, placement.notes(), budgets, rules, columns);
    }

    private static List<PodInfo> added(List<PodInfo> list, PodInfo pod) {
        List<PodInfo> to = list == null ? new ArrayList<>() : list;
        to.add(pod);
        return to;
    }

    private static List<PodInfo> readOnly(List<PodInfo> list) {
        return list == null ? List.of() : Collections.unmodifiableList(list); // wrapped, not copied
    }

    /**
     * How many of the node's pods are out of reach, by what protects them: worked out when shown (a
     * "too little" verdict), not for every node posed.
     */
    public Map<Protection, Integer> outOfReach() {
        Map<Protection, Integer> outOfReach = new EnumMap<>(Protection.class);
        if (who != null) {
            for (PodInfo pod : pods) {
                Protection protection = who.protectionOf(pod);
                if (!who.tierOf(pod, protection).reachable()) {
                    outOfReach.merge(protection, 1, Integer::sum);
                }
            }
        }
        return outOfReach;
    }

    private static NodeProblem blocked(String node, InfeasibleReason reason, String detail) {
        return new NodeProblem(node, new Obstacle(reason, detail), Resources.NONE, List.of(), Set.of(), List.of(),
                Tier.ORDINARY, List.of(), null, List.of(), pod -> List.of(), QueueRules.off(), null);
    }

    /** Whether the pod fits on the node as it is: nothing is short and nothing must go. */
    public boolean fitsAlready() {
        return obstacle == null && deficit.isEmpty() && forced.isEmpty() && needs.isEmpty();
    }

    /**
     * Whether {@code tier} is searched: tiers are searched in order from the first one that holds
     * every forced pod, each that adds candidates; the first of them always, even when it adds none.
     */
    boolean searches(Tier tier) {
        return tier == firstTier || (tier.compareTo(firstTier) > 0 && !byTier.get(tier.ordinal()).isEmpty());
    }

    /** The rows in {@link #columns} of {@link #candidatesUpTo} {@code tier}'s pods, or null when there are none to read. */
    int[] rowsUpTo(Tier tier) {
        return tier == Tier.ORDINARY && byTier.get(Tier.ORDINARY.ordinal()) instanceof PodRows rows ? rows.rows() : null;
    }

    /** The candidates of {@code tier} and every tier before it. */
    List<PodInfo> candidatesUpTo(Tier tier) {
        if (tier == Tier.ORDINARY) {
            return byTier.get(tier.ordinal()); // the usual case, as it is: the lists are unmodifiable
        }
        List<PodInfo> pods = new ArrayList<>();
        for (Tier t : TIERS) {
            if (t.compareTo(tier) <= 0) {
                pods.addAll(byTier.get(t.ordinal()));
            }
        }
        return pods;
    }
}
