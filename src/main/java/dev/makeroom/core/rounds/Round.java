package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.PlacementState;
import dev.makeroom.core.placement.PodPlacement;

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
 *
 * <p>What a policy asks of it (each policy is a folder of its own under this package, and sees only
 * this): the cluster as planned so far (nodes, pods on a node, loads, the placement state), its settings,
 * whether a pod may move at all ({@link #movable}), whether the round's limits are spent, where a moved pod
 * may land ({@link #landingAllowed}), to move a pod ({@link #relocate}) or record why one stays
 * ({@link #skip}). Consolidation and defragmentation plan whole nodes and rooms, proving several landings
 * and undoing them together, so they also reach the round's state itself: the planned cluster, the limit
 * and budget ledgers, the pods and nodes held back, and record what they planned ({@link #record},
 * {@link #room}, {@link #drain}); those methods are grouped below, marked as theirs.
 */
public final class Round {

    /** The order a node gives up pods in: lowest priority first, then the newest, then by name. */
    public static final Comparator<PodInfo> SHED_FIRST = Comparator.comparingInt(PodInfo::priority)
            .thenComparing(PodInfo::startTime, Comparator.nullsLast(Comparator.reverseOrder()))
            .thenComparing(PodInfo::name);

    private final ClusterSnapshot snapshot;
    private final RescheduleSettings settings;
    private final LimitLedger limits;
    private final BudgetLedger budgets;
    private final PlannedCluster planned;
    private final List<NodeInfo> nodes; // by name
    private final Instant now;
    private final PreemptionCheck preemption;
    private final LongSupplier nanos;
    private final Set<String> moved = new HashSet<>(); // a pod moves once a round; its replacement is not there yet
    private final Set<String> yieldedFor = new HashSet<>(); // pending pods a kept node goes back into service for
    private final Set<String> heldBack;
    private final Set<String> heldBackNodes;
    private final List<LandingRule> landingRules;
    private final Scope.Check scope;
    private final List<Move> moves = new ArrayList<>();
    private final List<Skip> skipped = new ArrayList<>();
    private final List<RoomPlan> rooms = new ArrayList<>();
    private final List<NodeDrain> drains = new ArrayList<>();

    /** A round over {@code inputs}, every move's landing kept to {@code landingRules} (the policies' own). */
    public Round(RoundInputs inputs, List<LandingRule> landingRules) {
        this.landingRules = List.copyOf(landingRules);
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

    /** The cluster as the round found it. */
    public ClusterSnapshot snapshot() {
        return snapshot;
    }

    /** The settings of the policy whose settings are of {@code type}. */
    public <S extends PolicySettings> S settings(Class<S> type) {
        return settings.policy(type);
    }

    /** Every node, by name. */
    public List<NodeInfo> nodes() {
        return nodes;
    }

    /** The pods on {@code node} with the round's moves so far applied. */
    public List<PodInfo> podsOn(NodeInfo node) {
        return planned.podsOn(node);
    }

    /** {@code node}'s share of its allocatable in use, summed over {@code resources}, as planned so far. */
    public double load(NodeInfo node, Iterable<String> resources) {
        return planned.load(node, resources);
    }

    /** The percent of {@code node}'s allocatable of {@code resource} in use, as planned so far. */
    public double percent(NodeInfo node, String resource) {
        return planned.percent(node, resource);
    }

    /** Where {@code pod} could go as planned so far: the placement engine's answer per node. */
    public PodPlacement placementOf(PodInfo pod) {
        return planned.placementOf(pod);
    }

    /** The placement state as planned so far, for the placement engine's scores and domains. */
    public PlacementState placement() {
        return planned;
    }

    /** Whether {@code pod} moves already this round (it moves once: its replacement is not there yet). */
    public boolean movedAlready(PodInfo pod) {
        return moved.contains(pod.uid());
    }

    /** Whether the round's limit of evictions is spent. */
    public boolean full() {
        return limits.roundFull();
    }

    /**
     * When {@code node}'s limit of evictions this round is spent, the limit in words (as a skip of
     * {@code pod} says it); empty while the node may give up more.
     */
    public Optional<String> nodeSpent(PodInfo pod, NodeInfo node) {
        if (!limits.nodeFull(node.name())) {
            return Optional.empty();
        }
        return Optional.of(limits.exceeded(pod, node.name()) instanceof LimitCheck.Passed passed ? passed.text()
                : "the node's limit for this round");
    }

    /** What the round planned, under the policies that {@code ran}. */
    public ReschedulePlan plan(List<ReschedulePolicy> ran) {
        return new ReschedulePlan(ran, moves, skipped, rooms, drains);
    }

    /** Whether every policy's rule for a landing allows {@code pod} on {@code target} ({@link LandingRule}). */
    public boolean landingAllowed(NodeInfo target, PodInfo pod) {
        for (LandingRule rule : landingRules) {
            if (!rule.allows(this, target, pod)) {
                return false;
            }
        }
        return true;
    }

    /** Whether the node, with {@code pod} landed on it, is at or under every percent of allocatable given. */
    public boolean staysAtOrUnder(NodeInfo target, PodInfo pod, Map<String, Integer> percents) {
        for (Map.Entry<String, Integer> threshold : percents.entrySet()) {
            if (planned.percent(target, threshold.getKey(), pod) > threshold.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** Whether the node is below every low threshold now, and stays at or below them with {@code pod} (if any). */
    public boolean staysBelow(NodeInfo target, PodInfo pod, Map<String, Integer> low) {
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
    public boolean movable(PodInfo pod, NodeInfo node, ReschedulePolicy policy) {
        Optional<Kept> kept = neverMoved(pod);
        kept.ifPresent(why -> skipped.add(new Skip(pod.ref(), node.name(), policy, why.category(), why.text())));
        return kept.isEmpty();
    }

    /** What keeps the pod in place whatever the policy: a {@link MoveBlocker}, or the document's scope. */
    public Optional<Kept> neverMoved(PodInfo pod) {
        return neverMoved(pod, false);
    }

    /** As {@link #neverMoved(PodInfo)}; {@code withWholeGang}: the pod moves with every running member of its gang. */
    public Optional<Kept> neverMoved(PodInfo pod, boolean withWholeGang) {
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
    public Relocation relocate(PodInfo pod, NodeInfo from, ReschedulePolicy policy, String why, List<NodeInfo> targets,
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

    public void skip(Skip skip) {
        skipped.add(skip);
    }

    // --- for the policies that plan whole nodes and rooms (consolidation, defragmentation) ---

    /** Adds a move already applied to the planned state to the round's, counted against the limits and budgets. */
    public void record(PodInfo pod, Move move) {
        moved.add(pod.uid());
        limits.record(pod, move.from());
        budgets.record(pod);
        moves.add(move);
    }

    /**
     * Adds a room made by moving (defragmentation's RoomByMoving, which counted its moves against the budgets as it
     * committed them): its moves are counted against the limits.
     */
    public void room(RoomPlan room) {
        rooms.add(room);
        for (Move move : room.moves()) {
            PodInfo pod = snapshot.pod(move.pod().uid());
            moved.add(pod.uid());
            limits.record(pod, move.from());
            moves.add(move);
        }
    }

    /** Adds a drain of a node (consolidation). */
    public void drain(NodeDrain drain) {
        drains.add(drain);
    }

    public RescheduleSettings settings() {
        return settings;
    }

    public LimitLedger limits() {
        return limits;
    }

    public BudgetLedger budgets() {
        return budgets;
    }

    public PlannedCluster planned() {
        return planned;
    }

    public Instant now() {
        return now;
    }

    public PreemptionCheck preemption() {
        return preemption;
    }

    public LongSupplier nanos() {
        return nanos;
    }

    /** The UIDs of the pods moved this round. */
    public Set<String> moved() {
        return moved;
    }

    /** The pending pods a kept node went back into service for this round. */
    public Set<String> yieldedFor() {
        return yieldedFor;
    }

    /** The pods the Eviction API refused lately. */
    public Set<String> heldBack() {
        return heldBack;
    }

    /** The nodes consolidation abandoned or could not start lately. */
    public Set<String> heldBackNodes() {
        return heldBackNodes;
    }
}
