package dev.makeroom.core.preemption;

import dev.makeroom.core.accounting.FitCheck;
import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PreemptionPolicy;
import dev.makeroom.core.model.Resources;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Decides a preempt call: is the pod eligible, what is each candidate node's best victim set, and
 * which nodes to answer with, in makeroom's order of preference.
 */
public final class PreemptionEngine {

    // a last-resort set (opted-out pods, originators) only wins where nothing else works
    private static final Comparator<NodeVerdict> PREFERENCE = Comparator
            .comparing(NodeVerdict::lastResort)
            .thenComparing((NodeVerdict v) -> v.victims().objective())
            .thenComparing(NodeVerdict::node);

    private final PreemptionSettings settings;
    private final LongSupplier nanoClock;
    private final VictimSelector selector;

    public PreemptionEngine(PreemptionSettings settings, LongSupplier nanoClock) {
        this.settings = settings;
        this.nanoClock = nanoClock;
        this.selector = settings.strategy() == Strategy.KUBE_DEFAULT ? new ReprieveSelector() : new MinimalVictimSearch();
    }

    public PreemptionSettings settings() {
        return settings;
    }

    /** Decides over bare node names, as the debug simulation and tests ask. */
    public PreemptionDecision decide(ClusterSnapshot snapshot, PodInfo pending, List<String> nodeNames) {
        return decide(snapshot, pending, nodeNames, QueueRules.off());
    }

    public PreemptionDecision decide(ClusterSnapshot snapshot, PodInfo pending, List<String> nodeNames,
                                     QueueRules rules) {
        return decideFor(snapshot, pending, nodeNames.stream().map(n -> new Candidate(n, List.of())).toList(), rules);
    }

    public PreemptionDecision decideFor(ClusterSnapshot snapshot, PodInfo pending, List<Candidate> candidates) {
        return decideFor(snapshot, pending, candidates, QueueRules.off());
    }

    /** The whole preempt decision; {@code rules} are the queue laws for this pod (or off). */
    public PreemptionDecision decideFor(ClusterSnapshot snapshot, PodInfo pending, List<Candidate> candidates,
                                        QueueRules rules) {
        long start = nanoClock.getAsLong();
        String ineligible = ineligibility(snapshot, pending);
        if (ineligible != null) {
            return new PreemptionDecision(pending.ref(), DecisionOutcome.NOT_ELIGIBLE, ineligible,
                    settings.strategy(), List.of(), List.of(), nanoClock.getAsLong() - start);
        }
        Deadline deadline = Deadline.after(nanoClock, settings.budget().toNanos());
        Map<String, Candidate> unique = new LinkedHashMap<>();
        candidates.forEach(c -> unique.putIfAbsent(c.node(), c));
        // Evaluated in name order, so that among equally good nodes the one answered does not
        // depend on the order the scheduler happened to list them in.
        List<Candidate> byName = new ArrayList<>(unique.values());
        byName.sort(Comparator.comparing(Candidate::node));
        Map<String, NodeVerdict> verdictByNode = new HashMap<>();
        String pendingHome = NodeUsage.homeOf(snapshot, pending);
        InterPodConstraints interPod = InterPodConstraints.of(snapshot, pending);
        Objective bestSoFar = null;
        for (int i = 0; i < byName.size(); i++) {
            Candidate candidate = byName.get(i);
            NodeVerdict stale = staleHint(snapshot, candidate);
            Objective cutoff = settings.answer() == AnswerMode.BEST ? bestSoFar : null;
            NodeVerdict verdict = stale != null ? stale
                    : evaluate(snapshot, pending, pendingHome, candidate, deadline.slice(byName.size() - i),
                    cutoff, rules, interPod);
            verdictByNode.put(candidate.node(), verdict);
            if (verdict.isFeasible() && !verdict.dominated() && !verdict.lastResort()
                    && (bestSoFar == null || verdict.victims().objective().isBetterThan(bestSoFar))) {
                bestSoFar = verdict.victims().objective();
            }
        }
        List<NodeVerdict> verdicts = unique.keySet().stream().map(verdictByNode::get).toList();
        List<NodeVerdict> feasible = new ArrayList<>(verdicts.stream().filter(NodeVerdict::isFeasible).toList());
        feasible.sort(PREFERENCE);
        List<NodeVerdict> chosen = settings.answer() == AnswerMode.BEST && !feasible.isEmpty()
                ? List.of(feasible.get(0)) : feasible;
        DecisionOutcome outcome = !chosen.isEmpty() ? DecisionOutcome.PREEMPT
                : rules.delayPending() ? DecisionOutcome.DELAYED_BY_QUEUE : DecisionOutcome.NO_FEASIBLE_NODE;
        String detail = switch (outcome) {
            case PREEMPT -> describe(chosen.get(0));
            case DELAYED_BY_QUEUE -> "no node works within its own queue; other queues are open to it after "
                    + rules.delayDetail();
            default -> "no candidate node can make room";
        };
        return new PreemptionDecision(pending.ref(), outcome, detail, settings.strategy(), verdicts, chosen,
                nanoClock.getAsLong() - start);
    }

    private static String describe(NodeVerdict best) {
        return "on " + best.node() + " evict " + best.victims().victims().stream()
                .map(p -> p.ref().toString()).collect(Collectors.joining(", "));
    }

    /** Why the pod may not preempt at all, or null when it may (kube-scheduler's PodEligibleToPreemptOthers). */
    private static String ineligibility(ClusterSnapshot snapshot, PodInfo pending) {
        if (pending.preemptionPolicy() == PreemptionPolicy.NEVER) {
            return "preemptionPolicy is Never";
        }
        String nominated = pending.nominatedNodeName();
        NodeInfo node = nominated == null ? null : snapshot.node(nominated);
        if (node != null) {
            for (PodInfo pod : node.pods()) {
                if (pod.terminating() && pod.priority() < pending.priority()) {
                    return "already waiting for " + pod.ref() + " to terminate on nominated node " + nominated;
                }
            }
        }
        return null;
    }

    /**
     * The scheduler names victims it sees on the node; one makeroom does not see there means the
     * two views disagree about that node, so makeroom leaves it out rather than guess.
     */
    private static NodeVerdict staleHint(ClusterSnapshot snapshot, Candidate candidate) {
        for (String uid : candidate.hintedVictimUids()) {
            PodInfo pod = snapshot.pod(uid);
            if (pod == null || !candidate.node().equals(pod.nodeName())) {
                return NodeVerdict.infeasible(candidate.node(), InfeasibleReason.UNKNOWN_VICTIM,
                        "the scheduler's victim " + uid + " is not on this node in makeroom's view", SearchStats.NONE);
            }
        }
        return null;
    }

    /**
     * One node's verdict. With a {@code cutoff} (the best node so far, when only the best node is
     * answered) the search only looks for sets that beat it; a node that cannot is marked dominated.
     */
    NodeVerdict evaluate(ClusterSnapshot snapshot, PodInfo pending, String pendingHome, Candidate candidate,
                         Deadline deadline, Objective cutoff, QueueRules rules, InterPodConstraints interPod) {
        String nodeName = candidate.node();
        NodeInfo node = snapshot.node(nodeName);
        if (node == null) {
            return NodeVerdict.infeasible(nodeName, InfeasibleReason.UNKNOWN_NODE, "not in makeroom's view",
                    SearchStats.NONE);
        }
        NodeConstraints placement = interPod.on(node);
        if (placement.unmodelled() != null) {
            return SchedulersVictims.verdict(snapshot, pending, candidate, placement.unmodelled(), rules,
                    settings.pdb() == PdbMode.STRICT);
        }
        if (placement.impossible() != null) {
            return NodeVerdict.infeasible(nodeName, InfeasibleReason.INTER_POD_CONSTRAINT, placement.impossible(),
                    SearchStats.NONE);
        }
        boolean daemonSetHere = pending.isDaemonSetPodFor(nodeName);
        // tiers of candidates, each tried only when the ones before cannot make room: the ordinary
        // ones, then (with queues) originators, then for a pinned DaemonSet pod the opted-out ones
        List<PodInfo> candidates = new ArrayList<>();
        List<PodInfo> originators = new ArrayList<>();
        List<PodInfo> optedOut = new ArrayList<>();
        Set<String> forced = new HashSet<>();
        Map<Protection, Integer> kept = new EnumMap<>(Protection.class);
        int firstTier = 0;
        for (PodInfo pod : node.pods()) {
            Protection protection = Candidacy.protectionOf(pod, pending, snapshot, rules);
            if (protection != Protection.NONE && !(protection.isOptOut() && daemonSetHere)) {
                kept.merge(protection, 1, Integer::sum); // out of reach in every tier
            }
            boolean reluctant = protection == Protection.NONE && rules.active() && pod.originator();
            String conflict = Conflicts.between(pending, pod);
            if (conflict == null) {
                conflict = placement.forced().get(pod.uid());
            }
            if (conflict != null) {
                if (protection != Protection.NONE && !(protection.isOptOut() && daemonSetHere)) {
                    return NodeVerdict.infeasible(nodeName, InfeasibleReason.CONFLICT_WITH_PROTECTED_POD,
                            conflict + " with " + pod.ref() + " (" + protection + ")", SearchStats.NONE);
                }
                forced.add(pod.uid());
                firstTier = Math.max(firstTier, protection.isOptOut() ? 2 : reluctant ? 1 : 0);
            }
            if (reluctant) {
                originators.add(pod);
            } else if (protection == Protection.NONE) {
                candidates.add(pod);
            } else if (protection.isOptOut()) {
                optedOut.add(pod);
            }
        }
        Resources deficit = FitCheck.deficit(node.allocatable(), NodeUsage.requestedFor(node, pending, pendingHome),
                pending.requests());
        if (deficit.isEmpty() && forced.isEmpty() && placement.needs().isEmpty()) {
            return NodeVerdict.infeasible(nodeName, InfeasibleReason.FITS_WITHOUT_PREEMPTION,
                    "the pod fits without evicting anything", SearchStats.NONE);
        }
        int lastTier = daemonSetHere && !optedOut.isEmpty() ? 2 : !originators.isEmpty() ? 1 : 0;
        NodeVerdict verdict = null;
        for (int tier = firstTier; tier <= lastTier; tier++) {
            if ((tier == 1 && originators.isEmpty()) || (tier == 2 && optedOut.isEmpty())) {
                continue;
            }
            List<PodInfo> pool = new ArrayList<>(candidates);
            if (tier >= 1) {
                pool.addAll(originators);
            }
            if (tier == 2) {
                pool.addAll(optedOut);
            }
            // a last-resort set never sets the cutoff, so it is searched without one
            Selection selection = selector.select(pool(snapshot, pool, deficit, placement.needs(), forced, rules),
                    deadline, tier == 0 ? cutoff : null);
            verdict = verdict(nodeName, selection, tier > 0, deficit, placement, kept);
            if (verdict.isFeasible()) {
                return verdict;
            }
        }
        return verdict != null ? verdict : verdict(nodeName, selector.select(
                pool(snapshot, candidates, deficit, placement.needs(), forced, rules), deadline, cutoff), false,
                deficit, placement, kept);
    }

    private CandidatePool pool(ClusterSnapshot snapshot, List<PodInfo> candidates, Resources deficit,
                               List<CountNeed> needs, Set<String> forced, QueueRules rules) {
        QueueFloors floors = rules.floors(candidates);
        return new CandidatePool(candidates, deficit, needs, forced, snapshot::budgetsCovering,
                settings.pdb() == PdbMode.STRICT, floors);
    }

    private static NodeVerdict verdict(String node, Selection selection, boolean lastResort, Resources deficit,
                                       NodeConstraints placement, Map<Protection, Integer> kept) {
        if (selection.feasible()) {
            NodeVerdict feasible = NodeVerdict.feasible(node, selection, lastResort);
            return placement.notes().isEmpty() ? feasible : feasible.explained(String.join("; ", placement.notes()));
        }
        List<String> shortOf = new ArrayList<>(deficit.toMap().keySet());
        placement.needs().forEach(n -> shortOf.add(n.name()));
        String detail = selection.reason() == InfeasibleReason.NOT_ENOUGH_PREEMPTIBLE_RESOURCES
                ? "evicting every preemptible pod frees too little of " + shortOf + keptText(kept)
                : selection.detail();
        return NodeVerdict.infeasible(node, selection.reason(), detail, selection.stats());
    }

    /** Why the rest of the node's pods were out of reach, so "too little" can be acted on. */
    private static String keptText(Map<Protection, Integer> kept) {
        if (kept.isEmpty()) {
            return "";
        }
        StringJoiner text = new StringJoiner(", ", "; not preemptible: ", "");
        kept.forEach((protection, pods) -> text.add(pods + " " + protection.describe()));
        return text.toString();
    }
}
