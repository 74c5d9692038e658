package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * One round's working state, which every {@link RoundPolicy} plans through: the planned cluster (the
 * snapshot with the round's earlier moves applied), the limits and budgets each move is counted against,
 * and what the round has planned and skipped so far. {@link #relocate} is the one way a policy moves a
 * single pod: it checks the limits, the Eviction API's recent refusals and the budgets, then asks the
 * placement engine, least used target first, until a node takes the pod.
 */
final class Round {

    /** The order a node gives up pods in: lowest priority first, then the newest, then by name. */
    static final Comparator<PodInfo> SHED_FIRST = Comparator.comparingInt(PodInfo::priority)
            .thenComparing(PodInfo::startTime, Comparator.nullsLast(Comparator.reverseOrder()))
            .thenComparing(PodInfo::name);

    final ClusterSnapshot snapshot;
    final RescheduleSettings settings;
    final LimitLedger limits;
    final BudgetLedger budgets;
    final PlannedCluster planned;
    final List<NodeInfo> nodes; // by name
    final Instant now;
    final PreemptionCheck preemption;
    final LongSupplier nanos;
    final Set<String> moved = new HashSet<>(); // a pod moves once a round; its replacement is not there yet
    final Set<String> yieldedFor = new HashSet<>(); // pending pods a kept node goes back into service for
    final Set<String> heldBack;
    final Set<String> heldBackNodes;
    private final Scope.Check scope;
    private final List<Move> moves = new ArrayList<>();
    private final List<Skip> skipped = new ArrayList<>();
    private final List<RoomPlan> rooms = new ArrayList<>();
    private final List<NodeDrain> drains = new ArrayList<>();

    Round(RoundInputs inputs) {
        this.snapshot = inputs.snapshot();
        this.settings = inputs.settings();
        this.now = inputs.now();
        this.limits = new LimitLedger(settings.limits(), inputs.history(), now);
        this.budgets = new BudgetLedger(snapshot, settings.aggressiveness(), limits.lastHour());
        this.planned = new PlannedCluster(snapshot, now);
        this.preemption = inputs.preemption();
        this.nanos = inputs.nanos();
        this.heldBack = inputs.heldBackPods();
        this.heldBackNodes = inputs.heldBackNodes();
        this.scope = settings.scope().in(snapshot, now);
        this.nodes = snapshot.nodes().stream().sorted(Comparator.comparing(NodeInfo::name)).toList();
    }

    /** What the round planned, under the policies that {@code ran}. */
    ReschedulePlan plan(List<ReschedulePolicy> ran) {
        return new ReschedulePlan(ran, moves, skipped, rooms, drains);
    }

    /** With rebalancing on, a pod moved for another policy must not make its new node one to rebalance. */
    boolean staysAtOrBelowHigh(NodeInfo target, PodInfo pod) {
        return !settings.policy(RebalanceSettings.class).enabled() || staysAtOrUnder(target, pod, settings.policy(RebalanceSettings.class).highPercent());
    }

    /** Whether the node, with {@code pod} landed on it, is at or under every percent of allocatable given. */
    boolean staysAtOrUnder(NodeInfo target, PodInfo pod, Map<String, Integer> percents) {
        for (Map.Entry<String, Integer> threshold : percents.entrySet()) {
            if (planned.percent(target, threshold.getKey(), pod) > threshold.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Whether the node is below every low threshold now, and stays at or below them with {@code pod} (if any). */
    boolean staysBelow(NodeInfo target, PodInfo pod, Map<String, Integer> low) {
        for (Map.Entry<String, Integer> threshold : low.entrySet()) {
            if (target.allocatable().get(threshold.getKey()) <= 0) {
                continue; // the node has none of it: it counts as below
            }
            if (planned.percent(target, threshold.getKey()) >= threshold.getValue()
                    || planned.percent(target, threshold.getKey(), pod) > threshold.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Whether the pod may be moved at all (nothing keeps it in place, in scope); a skip says why not. */
    boolean movable(PodInfo pod, NodeInfo node, ReschedulePolicy policy) {
        Optional<Kept> kept = neverMoved(pod);
        kept.ifPresent(why -> skipped.add(new Skip(pod.ref(), node.name(), policy, why.category(), why.text())));
        return kept.isEmpty();
    }

    /** What keeps the pod in place whatever the policy: a {@link MoveBlocker}, or the document's scope. */
    Optional<Kept> neverMoved(PodInfo pod) {
        return neverMoved(pod, false);
    }

    /** As {@link #neverMoved(PodInfo)}; {@code withWholeGang}: the pod moves with every running member of its gang. */
    Optional<Kept> neverMoved(PodInfo pod, boolean withWholeGang) {
        Optional<MoveBlocker> blocker = MoveBlocker.of(pod, snapshot, settings.allowLocalStorage(), withWholeGang);
        if (blocker.isPresent()) {
            return Optional.of(new Kept(SkipCategory.of(blocker.get()), blocker.get().describe()));
        }
        if (scope.of(pod) instanceof Scope.Out out) {
            return Optional.of(new Kept(SkipCategory.OUT_OF_SCOPE, out.text()));
        }
        return Optional.empty();
    }

    /**
     * Plans the move to the least used of {@code targets} that takes the pod and {@code serves} the
     * policy, or records the skip that says why not.
     */
    Relocation relocate(PodInfo pod, NodeInfo from, ReschedulePolicy policy, String why, List<NodeInfo> targets,
                      Predicate<NodeInfo> serves) {
        if (limits.exceeded(pod, from.name()) instanceof LimitCheck.Passed passed) {
            return kept(new Skip(pod.ref(), from.name(), policy, SkipCategory.LIMIT, why + "; not moved: " + passed.text()));
        }
        if (heldBack.contains(pod.uid())) {
            return kept(new Skip(pod.ref(), from.name(), policy, SkipCategory.BACKOFF,
                    why + "; not moved: held back after the Eviction API refused it"));
        }
        Optional<DisruptionBudget> budget = budgets.refusing(pod);
        if (budget.isPresent()) {
            return kept(new Skip(pod.ref(), from.name(), policy, SkipCategory.BUDGET,
                    why + "; not moved: " + budgets.describe(budget.get())));
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
            return kept(new Skip(pod.ref(), from.name(), policy, SkipCategory.NO_LANDING, why + "; not moved: "
                    + (refusal == null ? "no other node qualifies for the " + policy.name().toLowerCase(Locale.ROOT)
                    + " policy" : "no other node takes it (" + refusal + ")")));
        }
        planned.move(pod, from.name(), best.name());
        Move move = new Move(pod.ref(), from.name(), best.name(), policy, why);
        record(pod, move);
        return new Relocation.Moved(best, move);
    }

    private Relocation kept(Skip skip) {
        skipped.add(skip);
        return new Relocation.Kept(skip);
    }

    /** Adds a move already applied to the planned state to the round's, counted against the limits and budgets. */
    void record(PodInfo pod, Move move) {
        moved.add(pod.uid());
        limits.record(pod, move.from());
        budgets.record(pod);
        moves.add(move);
    }

    /**
     * Adds a room made by moving ({@link RoomByMoving}, which counted its moves against the budgets as it
     * committed them): its moves are counted against the limits.
     */
    void room(RoomPlan room) {
        rooms.add(room);
        for (Move move : room.moves()) {
            PodInfo pod = snapshot.pod(move.pod().uid());
            moved.add(pod.uid());
            limits.record(pod, move.from());
            moves.add(move);
        }
    }

    void skip(Skip skip) {
        skipped.add(skip);
    }

    void drain(NodeDrain drain) {
        drains.add(drain);
    }
}
