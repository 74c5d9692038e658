package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PreemptionPolicy;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.room.Deadline;
import dev.makeroom.core.room.InfeasibleReason;
import dev.makeroom.core.room.NodeProblem;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.Objective;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.core.room.RoomMaker;
import dev.makeroom.core.room.SchedulersVictims;
import dev.makeroom.core.room.SearchStats;
import dev.makeroom.core.room.Strategy;
import dev.makeroom.core.room.WorkPrice;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.time.Instant;
import java.time.InstantSource;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Decides a preempt call, in five steps (one method each, in this order below):
 * <ol>
 *   <li>{@link #ineligibility}: may the pod preempt at all;</li>
 *   <li>{@link #usable}: the candidate nodes worth a search (each once; a node where the scheduler
 *       names a victim makeroom does not see there is left out);</li>
 *   <li>{@link #roomOnEachNode}: each node's least disruptive victims ({@link RoomMaker}), the best
 *       node so far serving as a cutoff for the rest;</li>
 *   <li>{@link #rank}: the nodes that work, in makeroom's order of preference ({@link #best}: only the
 *       first, when only the best is answered);</li>
 *   <li>{@link #answer}: the nodes answered and why.</li>
 * </ol>
 */
public final class PreemptionEngine {

    // a last-resort set (opted-out pods, originators) only wins where nothing else works; written out
    // rather than a comparator chain: it ranks every feasible node, hundreds per call
    private static final Comparator<NodeVerdict> PREFERENCE = (a, b) -> {
        int c = Boolean.compare(a.lastResort(), b.lastResort());
        if (c == 0) c = a.victims().objective().compareTo(b.victims().objective());
        return c != 0 ? c : a.node().compareTo(b.node());
    };

    private final PreemptionSettings settings;
    private final LongSupplier nanoClock;
    private final InstantSource wallClock;
    private final RoomMaker roomMaker;

    public PreemptionEngine(PreemptionSettings settings, LongSupplier nanoClock) {
        this(settings, nanoClock, InstantSource.system());
    }

    /** {@code wallClock} tells how long victims have run, for the work they would lose. */
    public PreemptionEngine(PreemptionSettings settings, LongSupplier nanoClock, InstantSource wallClock) {
        this.settings = settings;
        this.nanoClock = nanoClock;
        this.wallClock = wallClock;
        this.roomMaker = new RoomMaker(settings.strategy(), settings.pdb());
    }

    public PreemptionSettings settings() {
        return settings;
    }

    /** The price decisions show, at this engine's now: what a set of victims would lose if evicted now. */
    public WorkPrice.At shownPrice() {
        return settings.price().at(wallClock.instant());
    }

    /** The whole preempt decision; {@code rules} are the queue laws for this pod (or off). */
    public PreemptionDecision decide(ClusterSnapshot snapshot, PodInfo pending, List<Candidate> candidates,
                                     QueueRules rules) {
        return decide(snapshot, pending, candidates, rules, null);
    }

    /**
     * As above, after the placement engine has been asked of the same pod on the same snapshot
     * ({@code asked}, may be null): its pre-filters' counts are read, not made again.
     */
    public PreemptionDecision decide(ClusterSnapshot snapshot, PodInfo pending, List<Candidate> candidates,
                                     QueueRules rules, PodPlacement asked) {
        long start = nanoClock.getAsLong();
        Instant now = wallClock.instant(); // every victim's work is priced at this one moment
        Optional<Ineligible> ineligible = ineligibility(snapshot, pending);
        if (ineligible.isPresent()) {
            return PreemptionDecision.notEligible(pending.ref(), ineligible.get().text(), settings.strategy(),
                    nanoClock.getAsLong() - start);
        }
        SchedulersChoice.Pick schedulers = new SchedulersChoice.Pick();
        Usable usable = usable(snapshot, candidates, schedulers);
        roomOnEachNode(snapshot, pending, usable, candidates, rules, asked, settings.searchedAt(now));
        Map<String, NodeVerdict> verdicts = usable.inOrderAsked();
        List<NodeVerdict> ranked = settings.answer() == AnswerMode.BEST ? best(verdicts.values())
                : rank(verdicts.values());
        WorkPrice.At shown = settings.price().at(now); // as shownPrice(), at the decision's one instant
        return answer(pending, verdicts, ranked, rules, schedulers.best(snapshot, shown), shown,
                nanoClock.getAsLong() - start);
    }

    /** Why a pod may not preempt at all: by kube-scheduler's PodEligibleToPreemptOthers, with its words. */
    private record Ineligible(Why why, String text) {
        enum Why { PREEMPTION_POLICY_NEVER, WAITING_FOR_VICTIMS }
    }

    /** Step 1: why the pod may not preempt at all; none when it may. */
    private static Optional<Ineligible> ineligibility(ClusterSnapshot snapshot, PodInfo pending) {
        if (pending.preemptionPolicy() == PreemptionPolicy.NEVER) {
            return Optional.of(new Ineligible(Ineligible.Why.PREEMPTION_POLICY_NEVER, "preemptionPolicy is Never"));
        }
        return InFlightPreemption.of(snapshot, pending)
                .map(inFlight -> new Ineligible(Ineligible.Why.WAITING_FOR_VICTIMS, inFlight.describe()));
    }

    /** The nodes asked, each once in the order asked, and the verdicts found so far (every node's, once searched). */
    private record Usable(Set<String> asked, Map<String, NodeVerdict> settled) {

        /** The nodes no verdict settles yet: to be searched. */
        List<String> open() {
            List<String> open = new ArrayList<>();
            for (String node : asked) {
                if (!settled.containsKey(node)) {
                    open.add(node);
                }
            }
            return open;
        }

        /** Every node's verdict, in the order the nodes were asked. */
        Map<String, NodeVerdict> inOrderAsked() {
            Map<String, NodeVerdict> verdicts = new LinkedHashMap<>(2 * asked.size()); // sized: no rehashing
            asked.forEach(node -> verdicts.put(node, settled.get(node)));
            return verdicts;
        }
    }

    /**
     * Step 2: every node asked, once, in the order asked, with its verdict when it is settled without
     * a search. The scheduler names victims it sees on the node; one makeroom does not see there means
     * the two views disagree about that node, so makeroom leaves it out rather than guess. The victims
     * looked up are offered to {@code schedulers} too.
     */
    private static Usable usable(ClusterSnapshot snapshot, List<Candidate> candidates, SchedulersChoice.Pick schedulers) {
        Set<String> asked = new LinkedHashSet<>(2 * candidates.size()); // in the order asked
        Map<String, NodeVerdict> settled = new HashMap<>(2 * candidates.size()); // sized: no rehashing
        for (Candidate candidate : candidates) {
            String stale = null; // the first victim not on the node in makeroom's view
            boolean known = true;  // every victim in makeroom's view, wherever: the pick can be weighed
            long highest = Long.MIN_VALUE;
            long sum = 0;
            NodeInfo node = candidate.hintedVictimUids().isEmpty() ? null : snapshot.node(candidate.node());
            for (String uid : candidate.hintedVictimUids()) {
                // looked for among the node's own pods first: the view's map of every pod is the slow way
                int row = node == null ? -1 : node.columns().rowOf(uid);
                int priority;
                if (row >= 0) {
                    priority = node.columns().priority(row);
                } else {
                    PodInfo pod = snapshot.pod(uid);
                    if (pod == null) {
                        known = false;
                        stale = stale == null ? uid : stale;
                        break;
                    }
                    if (stale == null && !candidate.node().equals(pod.nodeName())) {
                        stale = uid;
                    }
                    priority = pod.priority();
                }
                highest = Math.max(highest, priority);
                sum += priority;
            }
            if (asked.add(candidate.node())) {
                if (stale != null) {
                    settled.put(candidate.node(), NodeVerdict.infeasible(candidate.node(), InfeasibleReason.UNKNOWN_VICTIM,
                            "the scheduler's victim " + stale + " is not on this node in makeroom's view",
                            SearchStats.NONE));
                }
            }
            if (known) {
                schedulers.offer(candidate, highest, sum);
            }
        }
        return new Usable(asked, settled);
    }

    /**
     * Step 3: fills in the verdict of every node still open. Nodes are searched in name order, so
     * that among equally good nodes the one answered does not depend on the order the scheduler
     * listed them in. When only the best node is answered, the best so far is the cutoff.
     */
    private void roomOnEachNode(ClusterSnapshot snapshot, PodInfo pending, Usable usable,
                                List<Candidate> candidates, QueueRules rules, PodPlacement asked, WorkPrice.At work) {
        Deadline deadline = Deadline.after(nanoClock, settings.budget().toNanos());
        InterPodConstraints interPod = InterPodConstraints.of(snapshot, pending, asked);
        List<String> open = usable.open();
        open.sort(Comparator.naturalOrder());
        Objective bestSoFar = null;
        // gangs change the cost where victims could break one (GangScenarios); the kube-default strategy is the scheduler's
        boolean gangs = settings.strategy() != Strategy.KUBE_DEFAULT && !snapshot.podsInGangs().isEmpty();
        for (int i = 0; i < open.size(); i++) {
            NodeProblem problem = NodeProblem.pose(snapshot, pending, open.get(i), rules, interPod::on);
            List<GangScenarios.AtRisk> atRisk = gangs && problem.obstacle() == null
                    ? GangScenarios.atRisk(snapshot, pending, snapshot.node(open.get(i)), rules) : List.of();
            Objective cutoff = settings.answer() == AnswerMode.BEST ? bestSoFar : null;
            NodeVerdict verdict = problem.obstacle() != null
                    && problem.obstacle().reason() == InfeasibleReason.UNMODELLED_CONSTRAINT
                    ? SchedulersVictims.verdict(snapshot, pending, open.get(i),
                    firstFor(candidates, open.get(i)).hintedVictimUids(), problem.obstacle().detail(), rules,
                    settings.pdb() == PdbMode.STRICT, work)
                    : roomMaker.find(problem, deadline, open.size() - i, cutoff, work);
            // the plain optimum bounds the gang cost from below; when it breaks no gang it is the gang optimum
            if (!atRisk.isEmpty() && verdict.isFeasible() && !verdict.dominated()
                    && !GangScenarios.spares(atRisk, verdict.victims().victims())) {
                verdict = GangScenarios.verdict(snapshot, pending, open.get(i), rules, interPod::on, atRisk, roomMaker,
                        deadline, open.size() - i, cutoff, work);
            }
            usable.settled().put(open.get(i), verdict);
            if (verdict.isFeasible() && !verdict.dominated() && !verdict.lastResort()
                    && (bestSoFar == null || verdict.victims().objective().isBetterThan(bestSoFar))) {
                bestSoFar = verdict.victims().objective();
            }
        }
    }

    /** The first candidate naming {@code node} (looked up for the rare unmodelled node, not mapped for every call). */
    private static Candidate firstFor(List<Candidate> candidates, String node) {
        for (Candidate candidate : candidates) {
            if (candidate.node().equals(node)) {
                return candidate;
            }
        }
        return null;
    }

    /** Step 4: the nodes that work, best first: no last resort, then the least disruptive set, then by name. */
    private static List<NodeVerdict> rank(Iterable<NodeVerdict> verdicts) {
        List<NodeVerdict> feasible = new ArrayList<>();
        verdicts.forEach(v -> {
            if (v.isFeasible()) {
                feasible.add(v);
            }
        });
        feasible.sort(PREFERENCE);
        return feasible;
    }

    /** Step 4 when only the best node is answered: that node alone (none when no node works), without sorting the rest. */
    private static List<NodeVerdict> best(Iterable<NodeVerdict> verdicts) {
        NodeVerdict best = null;
        for (NodeVerdict v : verdicts) {
            if (v.isFeasible() && (best == null || PREFERENCE.compare(v, best) < 0)) {
                best = v;
            }
        }
        return best == null ? List.of() : List.of(best);
    }

    /** Step 5: the best node (or all that work, best first), with what to evict there or why nothing works. */
    private PreemptionDecision answer(PodInfo pending, Map<String, NodeVerdict> verdicts, List<NodeVerdict> ranked,
                                      QueueRules rules, SchedulersChoice schedulers, WorkPrice.At shown, long nanos) {
        List<NodeVerdict> chosen = settings.answer() == AnswerMode.BEST && !ranked.isEmpty()
                ? List.of(ranked.get(0)) : ranked;
        DecisionOutcome outcome = !chosen.isEmpty() ? DecisionOutcome.PREEMPT
                : rules.delayPending() ? DecisionOutcome.DELAYED_BY_QUEUE : DecisionOutcome.NO_FEASIBLE_NODE;
        String detail = switch (outcome) {
            case PREEMPT -> "on " + chosen.get(0).node() + " evict " + chosen.get(0).victims().victims().stream()
                    .map(p -> p.ref().toString()).collect(Collectors.joining(", "));
            case DELAYED_BY_QUEUE -> "no node works within its own queue; other queues are open to it after "
                    + rules.delayDetail();
            default -> "no candidate node can make room";
        };
        long workLost = chosen.isEmpty() ? 0 : shown.ofAll(chosen.get(0).victims().victims());
        return new PreemptionDecision(pending.ref(), outcome, detail, settings.strategy(),
                List.copyOf(verdicts.values()), chosen, nanos, schedulers, workLost);
    }
}
