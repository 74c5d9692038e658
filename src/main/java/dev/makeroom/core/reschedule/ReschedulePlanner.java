package dev.makeroom.core.reschedule;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.Conflicts;
import dev.makeroom.core.placement.Filter;
import dev.makeroom.core.placement.Placement;
import dev.makeroom.core.placement.PreferenceScores;
import dev.makeroom.core.placement.Verdict;
import dev.makeroom.core.preemption.Deadline;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Plans one round of the rescheduler: which running pods to evict, and where each will land.
 *
 * <p><b>Design.</b> A move is planned only where makeroom can show the pod lands elsewhere: the
 * planner keeps a {@link PlannedCluster} (the snapshot with the round's earlier moves applied) and a
 * pod moves only to a node where, on that state, the scheduler's filters makeroom models pass without
 * preemption, whose avoid list does not name its controller (nor did a move off it this round), and
 * which serves the policy's goal. Pods whose placement depends on anything it does
 * not check ({@link MoveBlocker}) stay, and so do pods outside the document's {@link Scope}. Policies
 * run in a fixed order: defragment first (a pod that runs nowhere waits on it), then those that fix a
 * placement the cluster's rules now refuse (affinity, taints, spread), then duplicates, then rebalance,
 * then consolidate;
 * every move is counted against the {@link LimitLedger} and the {@link BudgetLedger} before it is
 * planned. A pod a budget does not let move now, or that the Eviction API refused lately
 * ({@code heldBack}), is skipped and the policy goes on to its next candidate, so one guarded pod never
 * stalls the movable ones beside it.
 *
 * <ul>
 *   <li><b>defragment</b>: a pod unschedulable for a while, which preemption does not place, gets a
 *       node freed for it by moving the fewest pods of no higher priority off it, each to a node that
 *       takes them all at once ({@link RoomByMoving}); the node is then held for it.</li>
 *   <li><b>affinity</b>: a pod whose node its node selector or required node affinity no longer
 *       allows, or whose required anti-affinity, at any topology, its domain now breaks (found for the
 *       round by {@link WideAntiAffinity}, confirmed by the placement engine), moves to the allowed node
 *       with the lowest use that takes it (and, with rebalancing on, stays at or below the {@code high}
 *       thresholds with it); so does, with a {@code minGain}, a pod with preferences of its own that
 *       the scheduler's preference score ({@link PreferenceScores}: preferred node and pod affinity and
 *       anti-affinity, and other pods' preferences for it) puts at least that much higher on another
 *       node that takes it.</li>
 *   <li><b>taints</b>, <b>spread</b>, <b>duplicates</b>: {@link TaintsPolicy}, {@link SpreadPolicy},
 *       {@link DuplicatesPolicy}, each with its design at its top. No move makes its own condition or an
 *       earlier policy's worse, and none goes straight back, so rounds come to rest.</li>
 *   <li><b>rebalance</b>: nodes above a {@code high} threshold, most loaded first, shed pods lowest
 *       priority first (then newest) that request the resources over, each to the node with the lowest
 *       use that is below every {@code low} threshold and stays at or below them with the pod. A target
 *       never rises above {@code low}, hence never above {@code high}, so a plan applied and planned
 *       again moves nothing back.</li>
 *   <li><b>consolidate</b>, last: {@link ConsolidatePolicy} empties the least used nodes, all of a
 *       node's pods or none; it runs even when off, to end the drains under way. No other policy's move
 *       lands on a node it empties.</li>
 * </ul>
 * Deterministic: nodes and pods are visited in a fixed order, ties broken by name.
 */
public final class ReschedulePlanner {

    /** The order a node gives up pods in: lowest priority first, then the newest, then by name. */
    static final Comparator<PodInfo> SHED_FIRST = Comparator.comparingInt(PodInfo::priority)
            .thenComparing(PodInfo::startTime, Comparator.nullsLast(Comparator.reverseOrder()))
            .thenComparing(PodInfo::name);

    private ReschedulePlanner() {
    }

    public static ReschedulePlan plan(ClusterSnapshot snapshot, RescheduleSettings settings,
                                      List<PastEviction> history, Instant now) {
        return plan(snapshot, settings, history, now, PreemptionCheck.NEVER, System::nanoTime);
    }

    /**
     * As above; {@code preemption} says which pending pods preemption places (defragmentation leaves
     * them to it), {@code nanos} is the clock of the defragmentation search's budget.
     */
    public static ReschedulePlan plan(ClusterSnapshot snapshot, RescheduleSettings settings,
                                      List<PastEviction> history, Instant now, PreemptionCheck preemption,
                                      LongSupplier nanos) {
        return plan(snapshot, settings, history, now, preemption, nanos, Set.of());
    }

    /**
     * As above; the pods of uids {@code heldBack} (the Eviction API refused them lately, and their
     * backoff has not run out) are not moved: each policy goes on to its next candidate.
     */
    public static ReschedulePlan plan(ClusterSnapshot snapshot, RescheduleSettings settings,
                                      List<PastEviction> history, Instant now, PreemptionCheck preemption,
                                      LongSupplier nanos, Set<String> heldBack) {
        return plan(snapshot, settings, history, now, preemption, nanos, heldBack, Set.of());
    }

    /**
     * As above; the nodes named in {@code heldBackNodes} (the consolidate policy abandoned them, or could
     * not start them, lately) are not tried for consolidation.
     */
    public static ReschedulePlan plan(ClusterSnapshot snapshot, RescheduleSettings settings,
                                      List<PastEviction> history, Instant now, PreemptionCheck preemption,
                                      LongSupplier nanos, Set<String> heldBack, Set<String> heldBackNodes) {
        Round round = new Round(snapshot, settings, new LimitLedger(settings.limits(), history, now), now, heldBack,
                heldBackNodes);
        if (settings.defragment().enabled()) {
            round.defragment(DefragmentCandidates.waiting(snapshot, settings.defragment(), now), preemption, nanos);
        }
        if (settings.affinity()) {
            round.affinity();
        }
        if (settings.taints().enabled()) {
            TaintsPolicy.run(round);
        }
        if (settings.spread()) {
            SpreadPolicy.run(round);
        }
        if (settings.duplicates()) {
            DuplicatesPolicy.run(round);
        }
        if (settings.rebalance().enabled()) {
            round.rebalance();
        }
        ConsolidatePolicy.run(round); // off, it still ends the drains under way
        return new ReschedulePlan(round.moves, round.skipped, round.rooms, round.drains);
    }

    /**
     * What defragmentation would do for {@code pending} alone, however long it has waited (the debug
     * API's question about one pod); the other policies do not run.
     */
    public static ReschedulePlan roomFor(ClusterSnapshot snapshot, RescheduleSettings settings,
                                         List<PastEviction> history, Instant now, PreemptionCheck preemption,
                                         LongSupplier nanos, PodInfo pending) {
        Round round = new Round(snapshot, settings, new LimitLedger(settings.limits(), history, now), now, Set.of(),
                Set.of());
        round.defragment(List.of(pending), preemption, nanos);
        return new ReschedulePlan(round.moves, round.skipped, round.rooms);
    }

    /** One round's working state; the policies in their own classes plan through it. */
    static final class Round {
        final ClusterSnapshot snapshot;
        final RescheduleSettings settings;
        final LimitLedger limits;
        final PlannedCluster planned;
        final List<NodeInfo> nodes; // by name
        private final List<Move> moves = new ArrayList<>();
        private final List<Skip> skipped = new ArrayList<>();
        private final List<RoomPlan> rooms = new ArrayList<>();
        private final List<NodeDrain> drains = new ArrayList<>();
        final Instant now;
        final Set<String> moved = new HashSet<>(); // a pod moves once a round; its replacement is not there yet
        final Set<String> yieldedFor = new HashSet<>(); // pending pods a kept node goes back into service for
        final BudgetLedger budgets;
        final Set<String> heldBack;
        final Set<String> heldBackNodes;
        private final Scope.Check scope;
        private Set<String> wideSuspects = Set.of(); // pods whose anti-affinity wider than a node may be broken
        private PreferenceScores scores; // on the planned state as it is; null once a move changed it

        Round(ClusterSnapshot snapshot, RescheduleSettings settings, LimitLedger limits, Instant now,
              Set<String> heldBack, Set<String> heldBackNodes) {
            this.snapshot = snapshot;
            this.budgets = new BudgetLedger(snapshot, settings.aggressiveness(), limits.lastHour());
            this.heldBack = heldBack;
            this.heldBackNodes = heldBackNodes;
            this.settings = settings;
            this.limits = limits;
            this.planned = new PlannedCluster(snapshot, now);
            this.now = now;
            this.scope = settings.scope().in(snapshot, now);
            this.nodes = snapshot.nodes().stream().sorted(Comparator.comparing(NodeInfo::name)).toList();
        }

        /**
         * Room for the pods waiting longest-unschedulable, highest priority first, by moving others
         * ({@link RoomByMoving}); each plan's moves are applied before the next pod's search.
         */
        void defragment(List<PodInfo> waiting, PreemptionCheck preemption, LongSupplier nanos) {
            RescheduleSettings.Defragment settings = this.settings.defragment();
            RoomByMoving search = new RoomByMoving(snapshot, planned, nodes, this.settings, limits, budgets, moved,
                    heldBack, scope);
            PreemptionCheck preemptionOnce = preemption.oncePerShape();
            for (PodInfo pending : waiting) {
                Skip leftAlone = DefragmentCandidates.leftAlone(snapshot, pending, preemptionOnce, limits, now);
                if (leftAlone != null) {
                    skipped.add(leftAlone);
                    continue;
                }
                RoomByMoving.Outcome outcome = search.find(pending,
                        Deadline.after(nanos, settings.searchBudget().toNanos()), now.plus(settings.reserveFor()));
                if (outcome.plan() == null) {
                    skipped.add(new Skip(pending.ref(), null, ReschedulePolicy.DEFRAGMENT, outcome.noPlan().category(),
                            outcome.reason()));
                    continue;
                }
                rooms.add(outcome.plan());
                for (Move move : outcome.plan().moves()) {
                    PodInfo pod = snapshot.pod(move.pod().uid());
                    moved.add(pod.uid());
                    limits.record(pod, move.from());
                    moves.add(move);
                }
            }
        }

        void affinity() {
            wideSuspects = WideAntiAffinity.suspects(planned, snapshot.podsWithAntiAffinity());
            for (NodeInfo node : nodes) {
                for (PodInfo pod : List.copyOf(planned.podsOn(node))) {
                    if (moved.contains(pod.uid())) {
                        continue;
                    }
                    Misplacement here = misplaced(pod, node);
                    if (here instanceof Misplacement.Broken broken) {
                        if (movable(pod, node, ReschedulePolicy.AFFINITY)) {
                            relocate(pod, node, ReschedulePolicy.AFFINITY, broken.text(), nodes,
                                    target -> staysAtOrBelowHigh(target, pod));
                        }
                    } else if (settings.preferredMinGain() > 0 && PreferenceScores.hasPreferences(pod)) {
                        preferredElsewhere(pod, node);
                    }
                }
            }
        }

        /**
         * Moves the pod where the scheduler's preference score (its preferred node and pod affinity and
         * anti-affinity, and other pods' preferences for it) is at least {@code minGain} higher than where
         * it runs, if such a node takes it. The scores are counted again once a move changed the state.
         */
        private void preferredElsewhere(PodInfo pod, NodeInfo node) {
            if (scores == null) {
                scores = PreferenceScores.of(planned);
            }
            PreferenceScores.PodScores now = scores.forPod(pod);
            long here = now.on(node);
            long wanted = here + settings.preferredMinGain();
            if (nodes.stream().noneMatch(n -> n != node && now.on(n) >= wanted)
                    || !movable(pod, node, ReschedulePolicy.AFFINITY)) {
                return;
            }
            NodeInfo landed = relocate(pod, node, ReschedulePolicy.AFFINITY, "its affinity preferences score "
                    + node.name() + " " + here + ", another node at least " + settings.preferredMinGain() + " more",
                    nodes, target -> now.on(target) >= wanted && staysAtOrBelowHigh(target, pod));
            if (landed != null) {
                scores = null;
            }
        }

        /** Whether the pod's required constraints still let it stay on its node, or which one its node breaks. */
        private Misplacement misplaced(PodInfo pod, NodeInfo node) {
            if (!pod.constraints().allowsNode(node)) {
                return new Misplacement.Broken(Misplacement.Rule.NODE_AFFINITY,
                        "its node selector or required node affinity no longer allows " + node.name());
            }
            for (PodInfo other : planned.podsOn(node)) {
                if (!other.uid().equals(pod.uid()) && Conflicts.keptApartOnNode(pod, other)) {
                    return new Misplacement.Broken(Misplacement.Rule.ANTI_AFFINITY_ON_NODE,
                            "required anti-affinity with " + other.ref() + " on the same node");
                }
            }
            if (wideSuspects.contains(pod.uid())) { // confirmed by the engine on the state the moves so far left
                Placement here = planned.placementOf(pod).on(node);
                if (here.filter() == Filter.INTER_POD_AFFINITY && here.verdict() == Verdict.UNSCHEDULABLE) {
                    return new Misplacement.Broken(Misplacement.Rule.ANTI_AFFINITY,
                            "required anti-affinity is broken where it runs: " + here.reason());
                }
            }
            return Misplacement.FITS;
        }

        void rebalance() {
            Map<String, Integer> high = settings.rebalance().highPercent();
            Map<String, Integer> low = settings.rebalance().lowPercent();
            Map<String, Double> loads = new HashMap<>();
            List<NodeInfo> over = new ArrayList<>();
            for (NodeInfo n : nodes) {
                if (!overResources(n, high).isEmpty()) {
                    over.add(n);
                    loads.put(n.name(), planned.load(n, high.keySet()));
                }
            }
            over.sort(Comparator.comparingDouble((NodeInfo n) -> -loads.get(n.name())).thenComparing(NodeInfo::name));
            // only nodes below every low threshold now can take pods; moves only fill them, so the list only shrinks
            List<NodeInfo> under = new ArrayList<>(nodes.stream().filter(n -> staysBelow(n, null, low)).toList());
            for (NodeInfo node : over) {
                List<PodInfo> pods = new ArrayList<>(planned.podsOn(node));
                pods.sort(SHED_FIRST);
                for (PodInfo pod : pods) {
                    if (moved.contains(pod.uid())) {
                        continue;
                    }
                    List<String> overNow = overResources(node, high);
                    if (overNow.isEmpty() || limits.roundFull()) {
                        break;
                    }
                    if (overNow.stream().noneMatch(r -> pod.requests().get(r) > 0)) {
                        continue; // moving it would not help
                    }
                    if (limits.nodeFull(node.name())) {
                        skipped.add(new Skip(pod.ref(), node.name(), ReschedulePolicy.REBALANCE, SkipCategory.LIMIT,
                                "above " + describe(overNow, high) + "; not moved: " + limitText(limits.exceeded(pod, node.name()))));
                        break; // the node's other pods would hit the same limit
                    }
                    if (movable(pod, node, ReschedulePolicy.REBALANCE)) {
                        under.removeIf(target -> !staysBelow(target, null, low));
                        relocate(pod, node, ReschedulePolicy.REBALANCE, "above " + describe(overNow, high), under,
                                target -> staysBelow(target, pod, low));
                    }
                }
            }
        }

        private List<String> overResources(NodeInfo node, Map<String, Integer> high) {
            List<String> over = new ArrayList<>();
            high.forEach((resource, percent) -> {
                if (planned.percent(node, resource) > percent) {
                    over.add(resource);
                }
            });
            over.sort(Comparator.naturalOrder());
            return over;
        }

        /** With rebalancing on, a pod moved for another policy must not make its new node one to rebalance. */
        boolean staysAtOrBelowHigh(NodeInfo target, PodInfo pod) {
            return !settings.rebalance().enabled() || staysAtOrUnder(target, pod, settings.rebalance().highPercent());
        }

        /** Whether the node, with {@code pod} landed on it, is at or under every percent of allocatable given. */
        boolean staysAtOrUnder(NodeInfo target, PodInfo pod, Map<String, Integer> percents) {
            for (Map.Entry<String, Integer> threshold : percents.entrySet()) {
                long allocatable = target.allocatable().get(threshold.getKey());
                long after = planned.requested(target).get(threshold.getKey()) + pod.requests().get(threshold.getKey());
                if (allocatable > 0 && 100.0 * after / allocatable > threshold.getValue()) {
                    return false;
                }
            }
            return true;
        }

        /** Whether the node is below every low threshold now, and stays at or below them with {@code pod} (if any). */
        boolean staysBelow(NodeInfo target, PodInfo pod, Map<String, Integer> low) {
            for (Map.Entry<String, Integer> threshold : low.entrySet()) {
                long allocatable = target.allocatable().get(threshold.getKey());
                if (allocatable <= 0) {
                    continue;
                }
                long now = planned.requested(target).get(threshold.getKey());
                long after = now + (pod == null ? 0 : pod.requests().get(threshold.getKey()));
                if (100.0 * now / allocatable >= threshold.getValue() || 100.0 * after / allocatable > threshold.getValue()) {
                    return false;
                }
            }
            return true;
        }

        /** A limit the node is full by, in words (nodeFull said one is passed). */
        private static String limitText(LimitCheck check) {
            return check instanceof LimitCheck.Passed passed ? passed.text() : "the node's limit for this round";
        }

        private static String describe(List<String> resources, Map<String, Integer> high) {
            return String.join(", ", resources.stream().map(r -> r + " " + high.get(r) + "%").toList());
        }

        /** Whether the pod may be moved at all (nothing keeps it in place, in scope); a skip says why not. */
        boolean movable(PodInfo pod, NodeInfo node, ReschedulePolicy policy) {
            MoveBlocker blocker = MoveBlocker.of(pod, snapshot, settings.allowLocalStorage());
            if (blocker != null) {
                skipped.add(new Skip(pod.ref(), node.name(), policy, SkipCategory.of(blocker), blocker.describe()));
                return false;
            }
            if (scope.of(pod) instanceof Scope.Out out) {
                skipped.add(new Skip(pod.ref(), node.name(), policy, SkipCategory.OUT_OF_SCOPE, out.text()));
                return false;
            }
            return true;
        }

        /** Whether the scope allows moving the pod (asked without a skip: defragmentation counts its own). */
        Scope.Verdict scopeOf(PodInfo pod) {
            return scope.of(pod);
        }

        /**
         * Plans the move to the least used of {@code targets} that takes the pod and {@code serves} the
         * policy, or says why not; the node it goes to, or null.
         */
        NodeInfo relocate(PodInfo pod, NodeInfo from, ReschedulePolicy policy, String why, List<NodeInfo> targets,
                         Predicate<NodeInfo> serves) {
            if (limits.exceeded(pod, from.name()) instanceof LimitCheck.Passed passed) {
                skipped.add(new Skip(pod.ref(), from.name(), policy, SkipCategory.LIMIT, why + "; not moved: " + passed.text()));
                return null;
            }
            if (heldBack.contains(pod.uid())) {
                skipped.add(new Skip(pod.ref(), from.name(), policy, SkipCategory.BACKOFF,
                        why + "; not moved: held back after the Eviction API refused it"));
                return null;
            }
            DisruptionBudget budget = budgets.refusing(pod);
            if (budget != null) {
                skipped.add(new Skip(pod.ref(), from.name(), policy, SkipCategory.BUDGET,
                        why + "; not moved: " + budgets.describe(budget)));
                return null;
            }
            // "least used" in what the pod asks for (cpu and memory when it asks for nothing); the engine is
            // asked in that order and only until a node takes it: asking all 5,000 cost a round seconds
            Iterable<String> asked = pod.requests().isEmpty() ? List.of("cpu", "memory") : pod.requests().toMap().keySet();
            List<NodeInfo> serving = new ArrayList<>();
            Map<String, Double> loads = new HashMap<>();
            for (NodeInfo target : targets) {
                if (!target.name().equals(from.name()) && serves.test(target)) {
                    serving.add(target);
                    loads.put(target.name(), planned.load(target, asked));
                }
            }
            serving.sort(Comparator.comparingDouble((NodeInfo n) -> loads.get(n.name()))); // stable: by name among equals
            NodeInfo best = null;
            String refusal = null; // why the least used node that would serve did not take it: the skip says so
            for (NodeInfo target : serving) {
                Landing landing = planned.landing(pod, target);
                if (landing.lands()) {
                    best = target;
                    break;
                }
                refusal = refusal == null ? target.name() + ": " + landing.text() : refusal;
            }
            if (best == null) {
                // no node refused it: none would have served the policy (too full, or no better than here)
                skipped.add(new Skip(pod.ref(), from.name(), policy, SkipCategory.NO_LANDING, why + "; not moved: "
                        + (refusal == null ? "no other node qualifies for the " + policy.name().toLowerCase(Locale.ROOT)
                        + " policy" : "no other node takes it (" + refusal + ")")));
                return null;
            }
            planned.move(pod, from.name(), best.name());
            record(pod, new Move(pod.ref(), from.name(), best.name(), policy, why));
            return best;
        }

        /** Adds a move already applied to the planned state to the round's, counted against the limits and budgets. */
        void record(PodInfo pod, Move move) {
            moved.add(pod.uid());
            limits.record(pod, move.from());
            budgets.record(pod);
            moves.add(move);
        }

        void skip(Skip skip) {
            skipped.add(skip);
        }

        void drain(NodeDrain drain) {
            drains.add(drain);
        }
    }
}
