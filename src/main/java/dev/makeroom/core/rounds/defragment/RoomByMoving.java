package dev.makeroom.core.rounds.defragment;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.placement.Filter;
import dev.makeroom.core.placement.Placement;
import dev.makeroom.core.placement.Verdict;
import dev.makeroom.core.room.Deadline;
import dev.makeroom.core.room.Eligibility;
import dev.makeroom.core.room.NodeProblem;
import dev.makeroom.core.room.Protection;
import dev.makeroom.core.room.RoomSets;
import dev.makeroom.core.room.WorkPrice;
import dev.makeroom.core.rounds.BudgetLedger;
import dev.makeroom.core.rounds.Kept;
import dev.makeroom.core.rounds.LimitLedger;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.PlannedCluster;
import dev.makeroom.core.rounds.PodShape;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.RoomPlan;
import dev.makeroom.core.rounds.Round;
import dev.makeroom.core.rounds.SkipCategory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Function;

/**
 * Makes room for a pending pod that fits nowhere by moving others: a node, and the fewest running pods
 * to move off it, such that the pod then fits there and the moved pods fit on other nodes, all at once,
 * without preemption.
 *
 * <p><b>Design.</b> Per node this is the core's "make room for P on N", posed and enumerated as for
 * preemption ({@link NodeProblem}, {@link RoomSets}: what is short, which pods must go because they
 * conflict with P, which may go), with moving's {@link Eligibility} in place of preemption's, and one
 * step more: a set counts only if its pods all land elsewhere and no budget or limit is passed. Plans
 * are ordered by the fewest moved pods, then the lowest highest priority moved, then the least work
 * the moved pods lose ({@link WorkPrice}, as preemption prices an eviction: a pod that just
 * checkpointed is cheaper to move), then the least requests moved (as shares of the node's
 * allocatable), then node name.
 *
 * <p>Set sizes are searched in rising order across all nodes, so the first size with a verified set is
 * the fewest. Within a size, each node's sets that make room are sorted by the rest of the order and
 * verified in that order while they can beat the best so far: the first that verifies is the node's
 * best.
 *
 * <p>Verification is exact. Landings are found by backtracking over, for each moved pod, the first
 * {@code k} nodes that take it alone ({@code k} the set's size): in any assignment that works, a pod
 * whose node is not among its first {@code k} can go to one of them that no other moved pod uses (at
 * most {@code k - 1} are), where it lands alone as on the state before; so the first {@code k}
 * suffice. Each landing is checked on the {@link PlannedCluster} with the earlier ones applied, the
 * pending pod on the freed node last; a set is kept only when every check passes, so what the search
 * returns is always verified, and its deadline can only cost optimality ({@code proven} false).
 *
 * <p>That completeness argument holds where a pod lands on its own merits: resources, ports, taints,
 * selectors. Where topology spread or pod (anti-)affinity ties the moved pods' landings to each other
 * or to the pods that stay, a set can be missed; what is returned is still verified (each landing by the
 * placement engine, and the pods that stay no worse off than when the round began, checked once the
 * set has landed), but a plan found after such a set failed is not {@code proven} the fewest.
 */
final class RoomByMoving {

    /** Why a pending pod got no plan, for counting. */
    enum NoPlan {
        /** No node where moving at most the allowed number of pods frees enough. */
        NO_ROOM,
        /** Sets free enough, but their pods would not all land elsewhere. */
        NO_LANDING,
        /** Sets free enough, but a PodDisruptionBudget does not allow them. */
        BUDGET,
        /** Sets free enough, but a rate limit does not allow them. */
        LIMIT,
        /** The search ran out of time before it verified any set. */
        TIMED_OUT,
        /** A node takes the pod as it is: the scheduler will place it, nothing need move. */
        FITS;

        /** The skip's category it is counted under (a switch: a kind added without one does not compile). */
        SkipCategory category() {
            return switch (this) {
                case NO_ROOM -> SkipCategory.NO_ROOM;
                case NO_LANDING -> SkipCategory.NO_LANDING;
                case BUDGET -> SkipCategory.BUDGET;
                case LIMIT -> SkipCategory.LIMIT;
                case TIMED_OUT -> SkipCategory.TIMED_OUT;
                case FITS -> SkipCategory.FITS;
            };
        }
    }

    /** A plan, or why none. */
    sealed interface Outcome {
    }

    /** Room is made: the moves are applied to the planned cluster and the node is held. */
    record Planned(RoomPlan plan) implements Outcome {
    }

    /** No plan: why, for counting and in words. */
    record Unplanned(NoPlan why, String text) implements Outcome {
    }

    private static final Comparator<Option> ORDER = Comparator.comparingInt(Option::maxPriority)
            .thenComparingLong(Option::work).thenComparingDouble(Option::share).thenComparing(o -> o.node().name());

    private final PlannedCluster planned;
    private final List<NodeInfo> nodes;
    private final RescheduleSettings settings;
    private final LimitLedger limits;
    private final BudgetLedger budgets;
    private final Eligibility.Movers movers;
    private final WorkPrice.At price;
    private static final String TAKES_IT = "take it already"; // counted among the reasons a node is no site
    private static final int SCANS_KEPT = 8; // shapes whose scans are kept: each is a map over every node

    private final Map<PodInfo, Outcome> noRoomFor = new HashMap<>(); // shape -> no room, on the state since the last plan
    private final Map<ScanKey, SiteScan> scans = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ScanKey, SiteScan> eldest) {
            return size() > SCANS_KEPT;
        }
    };
    private Set<String> controllersThatCount;
    private final Map<String, Map<String, long[][]>> movableRequests = new HashMap<>(); // node -> resource -> see movableRequests

    /**
     * {@code neverMoved}: what keeps a pod in place whatever the policy ({@link Round#neverMoved});
     * {@code price}: what moving a pod loses.
     */
    RoomByMoving(PlannedCluster planned, List<NodeInfo> nodes, RescheduleSettings settings, LimitLedger limits,
                 BudgetLedger budgets, Set<String> movedThisRound, Set<String> heldBack,
                 Function<PodInfo, Optional<Kept>> neverMoved, WorkPrice.At price) {
        this.price = price;
        this.budgets = budgets;
        this.planned = planned;
        this.nodes = nodes;
        this.settings = settings;
        this.limits = limits;
        this.movers = new Eligibility.Movers(pod -> neverMoved.apply(pod)
                .map(kept -> kept.category() == SkipCategory.OUT_OF_SCOPE ? Protection.OUT_OF_SCOPE : Protection.NEVER_MOVED)
                .orElse(Protection.NONE), movedThisRound, heldBack);
    }

    /**
     * Room for {@code pending}: on success the moves are applied to the planned cluster and the node held
     * for it. A pod of the same shape as one that found no room since the last plan was made gets that
     * answer without a search: on the same state the search is the same (a timed-out one is not kept).
     */
    Outcome find(PodInfo pending, Deadline deadline, Instant reserveUntil) {
        PodInfo shape = shapeOf(pending);
        Outcome known = noRoomFor.get(shape);
        if (known != null) {
            return known;
        }
        int maxMoves = Math.min(settings.policy(DefragmentSettings.class).maxMoves(), limits.remaining());
        SiteScan scan = planned.interPod(pending) ? null
                : scans.computeIfAbsent(new ScanKey(shape, maxMoves), s -> new SiteScan());
        Outcome outcome = search(pending, deadline, reserveUntil, scan, maxMoves);
        if (outcome instanceof Planned planned) {
            noRoomFor.clear(); // the state changed: every earlier answer may differ now
            for (SiteScan other : scans.values()) { // and what each shape's scan found on the nodes the plan touched
                other.stale.add(planned.plan().node());
                planned.plan().moves().forEach(m -> other.stale.add(m.to()));
            }
        } else if (((Unplanned) outcome).why() != NoPlan.TIMED_OUT) {
            noRoomFor.put(shape, outcome);
        }
        return outcome;
    }

    /**
     * What the search reads of a pending pod: its {@link PodShape}, and its controller only where that
     * counts: where pods of it run (they are not moved for it; a move of one this round keeps it off that
     * node) or an avoid list names it.
     * Two pending pods of one shape get the same answer on the same state.
     */
    private PodInfo shapeOf(PodInfo pending) {
        PodInfo.Builder shape = PodShape.of(pending);
        if (pending.controller() != null && !controllersThatCount().contains(pending.controller().uid())) {
            shape.controller(null);
        }
        return shape.build();
    }

    /** The controllers of running pods and those named in avoid lists, read once a round, when first asked. */
    private Set<String> controllersThatCount() {
        if (controllersThatCount == null) {
            controllersThatCount = new HashSet<>();
            for (NodeInfo node : nodes) {
                for (PodInfo pod : node.pods()) {
                    if (pod.controller() != null) {
                        controllersThatCount.add(pod.controller().uid());
                    }
                }
                node.admission().avoided().forEach(a -> controllersThatCount.add(a.controllerUid()));
            }
        }
        return controllersThatCount;
    }

    /** {@code maxMoves}: a set larger than the evictions the round and the hour have left could never be done. */
    private Outcome search(PodInfo pending, Deadline deadline, Instant reserveUntil, SiteScan scan, int maxMoves) {
        Search search = new Search(pending, deadline, reserveUntil, maxMoves);
        List<Site> sites = search.sites(scan);
        if (search.fitsOn != null) {
            return new Unplanned(NoPlan.FITS, "it fits on " + search.fitsOn + " as it is: the scheduler places it");
        }
        for (int k = 1; k <= maxMoves && !search.timedOut; k++) {
            for (Site site : sites) {
                search.bestOn(site, k);
                if (search.timedOut) {
                    break;
                }
            }
            if (search.best != null) {
                return search.commit();
            }
        }
        if (search.timedOut) {
            return new Unplanned(NoPlan.TIMED_OUT, "the search ran out of its "
                    + settings.policy(DefragmentSettings.class).searchBudget().toMillis() + " ms before it verified a plan");
        }
        return search.noPlan(sites.size(), maxMoves);
    }

    /** A node where the pending pod may go once some pods leave, and the sets of pods whose leaving makes room. */
    /** What one node is to a pending pod: a site, a node that takes it already, or why it is neither. */
    private sealed interface NodeAnswer permits Site, TakesIt, NoSite {
    }

    private record Site(NodeInfo node, RoomSets sets) implements NodeAnswer {
    }

    private record TakesIt() implements NodeAnswer {
    }

    private record NoSite(String why) implements NodeAnswer {
    }

    /**
     * What scanning the nodes found for one shape of pending pod: per node its {@link Site} or why it is
     * none. A plan changes only the nodes it touches (the freed node, the nodes its pods land on), and
     * for a pod whose placement depends on no other pod's (not inter-pod) no other node's answer
     * changes with them; so the next pod of the shape scans again only the nodes touched since
     * ({@code stale}). A scan holds for one largest set size ({@link ScanKey}): the bound that lets
     * nodes go depends on it.
     */
    private record ScanKey(PodInfo shape, int maxMoves) {
    }

    private static final class SiteScan {
        final Map<String, NodeAnswer> byNode = new HashMap<>();
        final Set<String> stale = new HashSet<>();
    }

    /** One set of pods to move off a node, with its place in the order. */
    private record Option(NodeInfo node, List<PodInfo> pods, int maxPriority, long work, double share) {
    }

    /** The search for one pending pod. */
    private final class Search {
        private final PodInfo pending;
        private final Deadline deadline;
        private final Instant reserveUntil;
        private final Map<String, List<NodeInfo>> alone = new HashMap<>(); // uid -> first nodes taking the pod alone
        private final Map<NoPlan, Integer> failures = new EnumMap<>(NoPlan.class);
        private final Map<String, Integer> excluded = new HashMap<>(); // why nodes were no site, counted
        private Option best;
        private Map<PodInfo, String> bestLandings;
        private boolean timedOut;
        private boolean inexact; // a set failed whose landings depend on each other's: fewer moves may exist
        private String fitsOn;
        private final int maxMoves; // the largest set this search may propose

        Search(PodInfo pending, Deadline deadline, Instant reserveUntil, int maxMoves) {
            this.pending = pending;
            this.deadline = deadline;
            this.reserveUntil = reserveUntil;
            this.maxMoves = maxMoves;
        }

        /** The nodes where moving pods could make room, and what each offers. */
        List<Site> sites(SiteScan scan) {
            List<Site> sites = new ArrayList<>();
            for (NodeInfo node : nodes) {
                NodeAnswer known = scan == null || scan.stale.contains(node.name()) ? null : scan.byNode.get(node.name());
                if (known == null) {
                    known = answer(node);
                    if (scan != null) {
                        scan.byNode.put(node.name(), known);
                    }
                }
                if (known instanceof Site site) {
                    sites.add(site);
                } else if (known instanceof TakesIt) {
                    fitsOn = fitsOn == null ? node.name() : fitsOn;
                    excluded.merge(TAKES_IT, 1, Integer::sum);
                } else {
                    excluded.merge(((NoSite) known).why(), 1, Integer::sum);
                }
            }
            if (scan != null) {
                scan.stale.clear();
            }
            return sites;
        }

        /** What the node is to the pending pod. */
        private NodeAnswer answer(NodeInfo node) {
            if (!planned.touched(node) && cannotFree(node)) {
                return new NoSite("cannot free enough by moving as many pods as may move");
            }
            Placement placement = planned.placementOf(pending).on(node); // moving pods off cannot change these
            boolean refused = placement.verdict() == Verdict.UNRESOLVABLE || placement.verdict() == Verdict.UNKNOWN;
            if (PlannedCluster.cordoned(node) || (refused && placement.filter() != Filter.RESERVATION)) {
                return new NoSite("do not take it (cordoned, taints, node selector or affinity, a topology key it lacks)");
            }
            if (!planned.heldRoom(pending, node).fits()) {
                return new NoSite("hold room for another pod");
            }
            if (planned.receivesMoves(node)) {
                return new NoSite("expect pods moved there this round"); // held, it would keep them off
            }
            NodeProblem problem = NodeProblem.pose(planned.placementOf(pending), node, movers.forPending(pending));
            if (problem.obstacle() != null) {
                return new NoSite("hold a pod in its way that cannot move");
            }
            if (problem.fitsAlready()) {
                return new TakesIt();
            }
            if (problem.forced().size() > maxMoves) {
                return new NoSite("hold more pods in its way than may move");
            }
            RoomSets sets = RoomSets.of(problem);
            if (!sets.coverable()) {
                return new NoSite("have too little that may move");
            }
            return new Site(node, sets);
        }

        /**
         * A bound that lets most nodes go without posing the problem: even the {@code maxMoves} largest
         * requests, per resource, of the pods that could ever move for it (of at most its priority) do
         * not cover what the node lacks for the pending pod, or it lacks more pod slots than may move.
         * Read from the snapshot's pods, so only for a node no move has touched.
         */
        private boolean cannotFree(NodeInfo node) {
            // what it lacks counting only the bound pods (nominated ones would add to it): no more than the
            // full deficit, so the bound stays safe, and read without building one
            Resources allocatable = node.allocatable();
            Resources requested = node.requested();
            if (maxMoves <= 0 || requested.get(Resources.PODS) + 1 - allocatable.get(Resources.PODS) > maxMoves) {
                return true;
            }
            Resources wanted = pending.requests();
            for (int i = 0; i < wanted.size(); i++) {
                String resource = wanted.name(i);
                long lacking = wanted.value(i) + requested.get(resource) - allocatable.get(resource);
                if (lacking > 0 && !Resources.PODS.equals(resource) && largest(node, resource) < lacking) {
                    return true;
                }
            }
            return false;
        }

        /** The sum of the {@code maxMoves} largest requests of {@code resource} among pods that could move for the pending pod. */
        private long largest(NodeInfo node, String resource) {
            long[][] sorted = movableRequests.computeIfAbsent(node.name(), n -> new HashMap<>())
                    .computeIfAbsent(resource, r -> movableRequests(node, r));
            long sum = 0;
            int taken = 0;
            for (int i = 0; i < sorted[0].length && taken < maxMoves; i++) {
                if (sorted[1][i] <= pending.priority()) {
                    sum += sorted[0][i];
                    taken++;
                }
            }
            return sum;
        }

        /** Finds the node's best set of {@code k} pods if it beats the best so far. */
        void bestOn(Site site, int k) {
            RoomSets.Found found = site.sets().ofSize(k, best == null ? Integer.MAX_VALUE : best.maxPriority(),
                    deadline);
            timedOut |= found.timedOut();
            List<Option> options = new ArrayList<>();
            for (List<PodInfo> pods : found.sets()) {
                options.add(option(site.node(), pods));
            }
            options.sort(ORDER);
            for (Option option : options) {
                if (best != null && ORDER.compare(option, best) >= 0) {
                    return;
                }
                if (deadline.passed()) {
                    timedOut = true;
                    return;
                }
                Map<PodInfo, String> landings = verify(option);
                if (landings != null) {
                    best = option;
                    bestLandings = landings;
                    return;
                }
            }
        }

        private Option option(NodeInfo node, List<PodInfo> pods) {
            int maxPriority = Integer.MIN_VALUE;
            long work = 0;
            double share = 0;
            for (PodInfo pod : pods) {
                maxPriority = Math.max(maxPriority, pod.priority());
                work += price.of(pod);
                share += share(pod, node);
            }
            return new Option(node, pods, maxPriority, work, share);
        }

        /** Where each pod of the option lands, with every check passed; null (and nothing applied) when it does not work. */
        private Map<PodInfo, String> verify(Option option) {
            String node = option.node().name();
            if (budgets.refusing(option.pods()).isPresent()) {
                failures.merge(NoPlan.BUDGET, 1, Integer::sum);
                return null;
            }
            if (!limits.exceeded(option.pods(), node).within()) {
                failures.merge(NoPlan.LIMIT, 1, Integer::sum);
                return null;
            }
            List<PodInfo> pods = new ArrayList<>(option.pods());
            pods.sort(Comparator.comparingDouble((PodInfo p) -> -share(p, option.node())).thenComparing(PodInfo::name));
            Map<String, List<NodeInfo>> targets = new HashMap<>();
            for (PodInfo pod : pods) { // before any landing is tried: "alone" means on the state before
                targets.put(pod.uid(), aloneTargets(pod, node, pods.size()));
            }
            Map<PodInfo, String> landings = new LinkedHashMap<>(); // in the order verified: the plan's order
            if (land(pods, 0, node, targets, landings)) {
                if (planned.landing(pending, option.node()).lands()) {
                    undoAll(landings, node); // applied again by commit, for the best option only
                    return landings;
                }
                undoAll(landings, node);
            }
            failures.merge(NoPlan.NO_LANDING, 1, Integer::sum);
            if (planned.interPod(pending) || pods.stream().anyMatch(planned::interPod)) {
                inexact = true; // the landing search is complete for resources and node-local rules only
            }
            return null;
        }

        private boolean land(List<PodInfo> pods, int index, String from, Map<String, List<NodeInfo>> targets,
                             Map<PodInfo, String> landings) {
            if (index == pods.size()) {
                return planned.keptBroken(pods).kept(); // once all have landed: the pods that stay no worse off
            }
            PodInfo pod = pods.get(index);
            List<NodeInfo> candidates = new ArrayList<>(targets.get(pod.uid()));
            // the least used first (with the landings so far), so moved pods spread rather than pile up
            Set<String> asked = pod.requests().toMap().keySet();
            candidates.sort(Comparator.comparingDouble((NodeInfo n) -> planned.load(n, asked)).thenComparing(NodeInfo::name));
            for (NodeInfo target : candidates) {
                if (planned.placement(pod, target).lands()) {
                    planned.move(pod, from, target.name());
                    landings.put(pod, target.name());
                    if (land(pods, index + 1, from, targets, landings)) {
                        return true;
                    }
                    landings.remove(pod);
                    planned.undo(pod, from, target.name());
                }
            }
            return false;
        }

        /** The first {@code k} nodes other than {@code from} that take the pod alone, on the state before this search's tries. */
        private List<NodeInfo> aloneTargets(PodInfo pod, String from, int k) {
            List<NodeInfo> found = alone.get(pod.uid());
            int wanted = settings.policy(DefragmentSettings.class).maxMoves();
            if (found == null) {
                found = new ArrayList<>();
                for (NodeInfo target : nodes) {
                    if (!target.name().equals(from) && planned.placement(pod, target).lands()) {
                        found.add(target);
                        if (found.size() == wanted) {
                            break;
                        }
                    }
                }
                alone.put(pod.uid(), found);
            }
            return found.size() > k ? found.subList(0, k) : found;
        }

        private void undoAll(Map<PodInfo, String> landings, String from) {
            landings.forEach((pod, to) -> planned.undo(pod, from, to));
        }

        /** Applies the best option's moves and holds its node for the pending pod. */
        Outcome commit() {
            String node = best.node().name();
            List<Move> moves = new ArrayList<>();
            for (Map.Entry<PodInfo, String> landing : bestLandings.entrySet()) { // each verified after the ones before
                PodInfo pod = landing.getKey();
                budgets.record(pod);
                String to = landing.getValue();
                planned.move(pod, node, to);
                moves.add(new Move(pod.ref(), node, to, DefragmentPolicy.KIND,
                        "makes room for " + pending.ref() + " on " + node));
            }
            planned.reserve(node, pending);
            return new Planned(new RoomPlan(pending.ref(), node, moves, reserveUntil, !timedOut && !inexact));
        }

        /** Why no plan: how many nodes were out and why, and what stopped the sets that freed enough. */
        Outcome noPlan(int sites, int maxMoves) {
            StringJoiner text = new StringJoiner("; ");
            excluded.entrySet().stream().sorted(Map.Entry.comparingByKey())
                    .forEach(e -> text.add(e.getValue() + (e.getValue() == 1 ? " node " : " nodes ") + e.getKey()));
            NoPlan why = NoPlan.NO_ROOM;
            if (failures.isEmpty()) {
                if (sites > 0) {
                    text.add("on " + sites + (sites == 1 ? " node" : " nodes") + " no set of at most "
                            + maxMoves + " pods that may move frees enough");
                }
                if (sites > 0 && maxMoves < settings.policy(DefragmentSettings.class).maxMoves()) {
                    why = NoPlan.LIMIT;
                    text.add("the round's or the hour's eviction limit leaves " + maxMoves + " to move");
                }
            } else {
                why = failures.entrySet().stream().max(Map.Entry.<NoPlan, Integer>comparingByValue()
                        .thenComparing(Map.Entry.comparingByKey())).orElseThrow().getKey();
                text.add("sets that free enough: " + failures.getOrDefault(NoPlan.NO_LANDING, 0)
                        + " would not all land elsewhere, " + failures.getOrDefault(NoPlan.BUDGET, 0)
                        + " pass a PodDisruptionBudget, " + failures.getOrDefault(NoPlan.LIMIT, 0) + " pass a rate limit");
            }
            return new Unplanned(why, "no room by moving: " + text);
        }
    }

    /**
     * The node's requests of {@code resource} by the pods that could ever move this round, largest
     * first ({@code [0]}), with their priorities ({@code [1]}): what the bound reads, made once a round
     * per node and resource rather than once per pending pod.
     */
    private long[][] movableRequests(NodeInfo node, String resource) {
        List<PodInfo> movable = new ArrayList<>();
        for (PodInfo pod : node.pods()) {
            if (pod.requests().get(resource) > 0 && movers.mayEverMove(pod)) {
                movable.add(pod);
            }
        }
        movable.sort(Comparator.comparingLong((PodInfo p) -> -p.requests().get(resource)));
        long[][] sorted = new long[2][movable.size()];
        for (int i = 0; i < movable.size(); i++) {
            sorted[0][i] = movable.get(i).requests().get(resource);
            sorted[1][i] = movable.get(i).priority();
        }
        return sorted;
    }

    /** A pod's requests as shares of the node's allocatable, added up: "how much" it moves. */
    private static double share(PodInfo pod, NodeInfo node) {
        double share = 0;
        Resources r = pod.requests();
        for (int i = 0; i < r.size(); i++) {
            long of = node.allocatable().get(r.name(i));
            share += of > 0 ? (double) r.value(i) / of : 0;
        }
        return share;
    }
}
