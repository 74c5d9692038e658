package dev.makeroom.core.room;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The exact victim search: branch and bound for the victim set that is smallest under the
 * {@link Objective}.
 *
 * <p><b>Design.</b> Pods that must go (conflicts) are taken up front. The other candidates are
 * grouped into classes of interchangeable pods: same priority, same amounts freed of each short
 * resource, same budgets and queue floors, same cost in every {@link TieBreak} but the last (age).
 * Within a class only that last cost and the work lost differ, and since every objective component
 * is a sum or a maximum, and work lost ranks before the last tie-break under either {@link WorkRank},
 * taking k pods of a class is best done with its k cheapest (least work lost, then the newest); so the
 * search branches on <em>how many</em> of each class to take,
 * not which, which removes the symmetry of replicas. Classes are visited by priority, lowest first,
 * and each branch tries the largest useful count first (the fewest pods of the cheapest kind).
 *
 * <p>A branch stops as soon as the pod fits (adding a victim never lowers the cost). Otherwise it
 * is pruned when the classes still to come cannot free what is missing, or when a lower bound of
 * every completion is no better than the incumbent. The bound is component-wise, which is sound
 * for a lexicographic order: PDB violations so far; the highest priority so far or, while
 * something is missing, the priority of the next class (classes come in rising priority); the
 * victims so far plus the fewest further pods that could cover the most demanding short resource
 * (from the remaining pods' largest amounts); the priority sum so far plus that many times the next
 * priority; the work lost and the tie-break sums so far plus that many times the least such cost still
 * to come. Work lost is compared where the pool's {@link WorkRank} puts it.
 * Where that lets a set through, {@link TiedCountBound} looks closer: the further violations any
 * completion adds, and, for a completion that can at best tie the incumbent's violations and
 * highest priority, the further victims it needs using only pods that keep both.
 *
 * <p>Under the work-lost objective work lost comes before the count, so a set of more victims may win on it: the
 * closer looks at the count ({@link TiedCountBound}'s fewest pods, the {@link CoverTable}) are not
 * asked then; the bounds above (work lost among them) and the dominance rule stay.
 *
 * <p>Once a search turns hard, on large pools, a {@link DominanceRule} skips sets that take a pod
 * while leaving one that dominates it (as good in every way, better in one): some optimal set never
 * does; and a {@link CoverTable} tells the fewest further pods exactly where the relaxations above
 * stop a pod short (cpu and memory binding together).
 *
 * <p>Queue guarantees (law 2, {@link QueueFloors}) and, in strict mode, budgets are hard limits:
 * adding victims only draws more, so a branch stops where it breaks one, and classes also agree on
 * the floors they draw on. The bounds ignore them, which keeps them sound (a relaxation).
 *
 * <p>The running sums and the bound are an {@link ObjectiveSum}, the floors drawn a {@link FloorLedger}.
 * The kube-scheduler's reprieve result is the first incumbent (when it keeps the floors), so the
 * answer is never worse than it; a search still running after a few hundred states tunes the
 * multipliers of its surrogate bound ({@link SurrogateDirection}) and is offered a
 * {@link GreedyCover} set weighed by them. When only the best node is answered, the best node so
 * far is a cutoff: the search then only looks for sets that beat it, and a node that cannot is
 * reported as dominated. The search checks its deadline every few hundred states; when it passes, the best set
 * found so far is returned and marked not proven optimal.
 */
final class MinimalVictimSearch implements VictimSelector {

    private static final int CLOCK_CHECK_INTERVAL = 256;
    private static final long[] NO_COSTS = new long[TieBreak.COUNT];
    // states after which a search counts as hard and gets the aids that cost a pass over the pool
    private static final long HARD = 512;
    // states tying on count on which the priority sum's closer look is tried before it must pay
    private static final long CLOSER_LOOK_TRIAL = 256;
    // the tie-break in which interchangeable pods may differ: a class is taken cheapest first by it
    private static final int LAST = TieBreak.COUNT - 1;

    @Override
    public Selection select(CandidatePool pool, Deadline deadline, Objective cutoff) {
        long start = deadline.clock().getAsLong();
        ReprieveSelector.Reprieve reprieve = ReprieveSelector.reprieve(pool);
        if (reprieve == null) {
            return Selection.tooLittle();
        }
        Run run = new Run(pool, deadline, cutoff);
        run.offerWithinLimits(reprieve.evicted(), reprieve.withinFloors());
        run.search();
        SearchStats stats = new SearchStats(run.states, deadline.clock().getAsLong() - start,
                run.exhausted && run.best != null ? run.gap() : null);
        if (run.best == null) {
            // only with hard limits: without them the reprieve result always seeds the search
            return ReprieveSelector.noSetWithinLimits(pool, run.exhausted, stats);
        }
        VictimSet set = pool.victimSet(run.best, pool.pdbViolations(run.best));
        if (cutoff != null && !run.exhausted && !run.bestObjective.isBetterThan(cutoff)) {
            return Selection.dominated(set, stats);
        }
        return Selection.of(set, !run.exhausted, stats);
    }

    /** The classes of interchangeable candidates the search branches on and its bounds read, by rising priority. */
    static int[][] classesOf(CandidatePool pool) {
        return Run.buildClasses(pool);
    }

    /** One search over one pool; mutable state kept out of the selector so it stays reusable. */
    private static final class Run {
        private final CandidatePool pool;
        private final Deadline deadline;
        private final Objective cutoff;
        private final int dims;
        private final int[][] classes;      // pod indices per class, newest first
        private final int[] classPriority;
        private final long[][] suffixPrefix; // [class * dims + d] -> prefix sums of remaining amounts, largest first
        private final long[][] suffixTotal;  // [class][d] -> total amount remaining from this class on
        private final long[][] suffixMinCost; // [class][tie-break] -> least cost of any pod from it on
        private final long[] suffixMinWork;   // [class] -> least work lost of any pod from it on
        private final boolean[] chosen;
        private final long[] freed;
        private final ObjectiveSum sum;
        private final FloorLedger floors;
        private final TiedCountBound tied;
        private DominanceRule dominance; // from the moment the search turned hard, on large pools
        private CoverTable cover;        // likewise, where it applies
        private boolean[] best;
        private Objective bestObjective;
        private long states;
        private boolean exhausted;
        private long closerLooks;       // states tying on count that the priority sum's Lagrangian bound was tried on
        private long closerLookPrunes;  // and that it settled

        Run(CandidatePool pool, Deadline deadline, Objective cutoff) {
            this.pool = pool;
            this.deadline = deadline;
            this.cutoff = cutoff;
            this.dims = pool.need.length;
            this.chosen = new boolean[pool.size()];
            this.freed = new long[dims];
            this.sum = new ObjectiveSum(pool);
            this.floors = new FloorLedger(pool.floors);
            this.classes = buildClasses(pool);
            this.classPriority = new int[classes.length];
            for (int c = 0; c < classes.length; c++) {
                classPriority[c] = pool.priority(classes[c][0]);
            }
            this.suffixPrefix = new long[(classes.length + 1) * dims][];
            this.suffixTotal = new long[classes.length + 1][dims];
            this.suffixMinCost = new long[classes.length + 1][];
            this.suffixMinWork = new long[classes.length + 1];
            buildSuffixBounds();
            this.tied = new TiedCountBound(pool, classes, classPriority);
        }

        private static int[][] buildClasses(CandidatePool pool) {
            List<List<Integer>> groups = new ArrayList<>();
            for (int i = 0; i < pool.size(); i++) {
                if (pool.forced[i] || !freesSomethingNeeded(pool, i)) {
                    continue; // forced pods are taken up front; useless pods never improve a set
                }
                List<Integer> home = null;
                for (List<Integer> g : groups) {
                    if (interchangeable(pool, g.get(0), i)) {
                        home = g;
                        break;
                    }
                }
                if (home == null) {
                    groups.add(home = new ArrayList<>());
                }
                home.add(i);
            }
            for (List<Integer> g : groups) { // cheapest first: least work lost, then the last tie-break
                g.sort(Comparator.<Integer>comparingLong(pool::work).thenComparingLong(i -> pool.tieBreakCost(i, LAST)));
            }
            groups.sort(Comparator.<List<Integer>>comparingInt(g -> pool.priority(g.get(0)))
                    .thenComparing(g -> -share(pool, g.get(0))));
            return groups.stream().map(g -> g.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
        }

        private static boolean freesSomethingNeeded(CandidatePool pool, int i) {
            for (int d = 0; d < pool.need.length; d++) {
                if (pool.frees[i][d] > 0) {
                    return true;
                }
            }
            return false;
        }

        private static double share(CandidatePool pool, int i) {
            double s = 0;
            for (int d = 0; d < pool.need.length; d++) {
                s += Math.min(1.0, (double) pool.frees[i][d] / pool.need[d]);
            }
            return s;
        }

        private static boolean interchangeable(CandidatePool pool, int a, int b) {
            return pool.priority(a) == pool.priority(b)
                    && sameTieBreaksButLast(pool, a, b)
                    && Arrays.equals(pool.frees[a], pool.frees[b])
                    && pool.sameLimits(a, b);
        }

        private static boolean sameTieBreaksButLast(CandidatePool pool, int a, int b) {
            for (int t = 0; t < LAST; t++) {
                if (pool.tieBreakCost(a, t) != pool.tieBreakCost(b, t)) {
                    return false;
                }
            }
            return true;
        }

        private void buildSuffixBounds() {
            suffixMinCost[classes.length] = new long[TieBreak.COUNT];
            for (int c = classes.length - 1; c >= 0; c--) {
                long[] min = suffixMinCost[c + 1].clone();
                boolean last = c == classes.length - 1;
                int cheapest = classes[c][0]; // classes list their least work lost first
                suffixMinWork[c] = last ? pool.work(cheapest) : Math.min(suffixMinWork[c + 1], pool.work(cheapest));
                for (int t = 0; t < min.length; t++) {
                    long here = pool.tieBreakCost(cheapest, t);
                    if (t == LAST) { // classes list their least work first: the newest need not be first
                        for (int i : classes[c]) {
                            here = Math.min(here, pool.tieBreakCost(i, t));
                        }
                    }
                    min[t] = last ? here : Math.min(min[t], here);
                }
                suffixMinCost[c] = min;
            }
            for (int c = classes.length; c >= 0; c--) {
                for (int d = 0; d < dims; d++) {
                    suffixTotal[c][d] = (c == classes.length ? 0 : suffixTotal[c + 1][d])
                            + (c == classes.length ? 0 : pool.frees[classes[c][0]][d] * classes[c].length);
                }
            }
        }

        /**
         * Prefix sums of the amounts of resource d that the pods of classes c.. free, largest
         * first. Built on first use: most nodes are pruned at the root and never need deeper ones.
         */
        private long[] prefix(int c, int d) {
            long[] prefix = suffixPrefix[c * dims + d];
            if (prefix == null) {
                int size = 0;
                for (int k = c; k < classes.length; k++) {
                    size += classes[k].length;
                }
                long[] amounts = new long[size];
                int at = 0;
                for (int k = c; k < classes.length; k++) {
                    for (int i : classes[k]) {
                        amounts[at++] = pool.frees[i][d];
                    }
                }
                Arrays.sort(amounts);
                prefix = new long[size + 1];
                for (int j = 0; j < size; j++) {
                    prefix[j + 1] = prefix[j] + amounts[size - 1 - j];
                }
                suffixPrefix[c * dims + d] = prefix;
            }
            return prefix;
        }

        /** What a new set must beat: the incumbent, or the cutoff when that is better still. */
        private Objective bound() {
            if (cutoff != null && (bestObjective == null || !bestObjective.isBetterThan(cutoff))) {
                return cutoff;
            }
            return bestObjective;
        }

        /** Offers a set that keeps the queue floors ({@code withinFloors}), if in strict mode it also spares every budget. */
        void offerWithinLimits(boolean[] evicted, boolean withinFloors) {
            if (withinFloors && (!pool.strictPdb || pool.pdbViolations(evicted) == 0)) {
                offer(evicted);
            }
        }

        void offer(boolean[] evicted) {
            Objective objective = ObjectiveSum.over(pool, evicted).objective();
            if (bestObjective == null || objective.isBetterThan(bestObjective)) {
                best = evicted.clone();
                bestObjective = objective;
            }
        }

        void search() {
            for (int i = 0; i < pool.size(); i++) {
                if (pool.forced[i]) {
                    take(i);
                }
            }
            if (breaksLimit()) {
                return;
            }
            descend(0);
        }

        private void descend(int c) {
            if (exhausted) {
                return;
            }
            if (++states % CLOCK_CHECK_INTERVAL == 0 && deadline.passed()) {
                exhausted = true;
                return;
            }
            if (states == HARD) {
                turnedHard();
            }
            Objective bound = bound();
            if (pool.covers(freed)) {
                if (sum.mayBeat(bound, 0, 0, 0, null)) {
                    best = chosen.clone();
                    bestObjective = sum.objective();
                }
                return;
            }
            if (c == classes.length || !reachable(c)) {
                return;
            }
            if (!sum.mayBeat(bound, fewestMorePods(c), classPriority[c], suffixMinWork[c], suffixMinCost[c])
                    || !mayWinByCount(c, bound)) {
                return;
            }
            int[] members = classes[c];
            int most = Math.min(members.length, enoughFrom(members[0]));
            if (dominance != null) {
                most = dominance.longestPrefix(members, most, chosen);
            }
            for (int k = most; k >= 0 && !exhausted; k--) {
                int taken = 0;
                boolean allowed = true;
                for (; taken < k; taken++) {
                    take(members[taken]);
                    if (breaksLimit()) {
                        taken++;
                        allowed = false;
                        break;
                    }
                }
                if (allowed) {
                    descend(c + 1);
                }
                for (int j = taken - 1; j >= 0; j--) {
                    release(members[j]);
                }
            }
        }

        /**
         * Whether this set can still beat the bound where the cheap bound of {@link #descend} let
         * it through. With fewer violations so far: whether completions can stay below the bound's
         * violations ({@link TiedCountBound#fewestMoreViolations}); if at best they tie, they may
         * only add pods up to the bound's highest priority, and exactly the violations left. Then,
         * as with as many violations so far: a completion wins on a lower highest priority or, with
         * the same, by count (the fewest further pods that keep both, {@link TiedCountBound}) and,
         * taking exactly the pods left to tie on count, by its priority sum (at least what
         * {@link TiedCountBound#leastPrioritySumCovering} finds) and the tie-breaks. With work lost
         * counted, only the violations and the highest priority are looked at closer.
         */
        private boolean mayWinByCount(int c, Objective bound) {
            if (bound == null) {
                return true;
            }
            long highest = bound.highestPriority();
            int enough = (int) Math.min(Integer.MAX_VALUE - 1, bound.victims() - sum.count());
            int room = 0; // the violations a completion that may win adds: exactly this many
            if (sum.violations() != bound.pdbViolations()) { // fewer so far: mayBeat let only that through
                room = (int) Math.min(Integer.MAX_VALUE - 1, bound.pdbViolations() - sum.violations());
                int more = tied.fewestMoreViolations(c, Long.MAX_VALUE, freed, sum);
                if (more == TiedCountBound.NONE || more > room) {
                    return false;
                }
                if (more < room) {
                    return true;
                }
                // at best a tie on violations: only pods up to the bound's highest priority may win
                // (when every class is that low, the bound just taken is the same one)
                if (sum.highest() > highest || classPriority[classes.length - 1] > highest
                        && tied.fewestMoreViolations(c, highest, freed, sum) > room) {
                    return false;
                }
            }
            if (pool.workBeforeCount()) {
                return true; // more victims may still win on less work lost
            }
            if (Math.max(sum.highest(), classPriority[c]) < highest
                    && tied.mayCover(c, highest - 1, freed, sum, room)) {
                return true; // it may still win on a lower highest priority
            }
            int more = tied.fewest(c, highest, freed, sum, room, enough);
            if (more == TiedCountBound.NONE) {
                return false;
            }
            if (cover != null && more <= enough && cover.covers(endFor(highest), room)) {
                more = cover.fewest(c, freed, more, enough);
            }
            long morePriority = tied.leastPrioritySum(c, more);
            long enoughPriority = bound.prioritySum() - sum.prioritySum();
            if (sum.count() + more == bound.victims() && morePriority <= enoughPriority && closerLookPays()) {
                // a completion that may win takes exactly that many: which ones is worth a closer look
                long covering = tied.leastPrioritySumCovering(c, more, freed, sum, enoughPriority);
                closerLooks++;
                if (covering > enoughPriority) { // also when no such pods exist (Long.MAX_VALUE)
                    closerLookPrunes++;
                    return false;
                }
                morePriority = Math.max(morePriority, covering);
            }
            // the tie-breaks are only read on a tie before them: only then are they worth adding up
            boolean tiesBefore = sum.tiesOnCountAndPrioritySum(bound, more, morePriority);
            long[] moreTieBreaks = tiesBefore ? tied.leastTieBreaks(c, more) : NO_COSTS;
            long moreWork = tiesBefore ? more * suffixMinWork[c] : 0;
            return sum.mayBeat(bound, room, more, highest, morePriority, moreWork, moreTieBreaks);
        }

        /**
         * Whether the closer look at the priority sum is still worth its cost: it is tried on the
         * first states that tie on count and kept while it settles at least one in 64 of them.
         */
        private boolean closerLookPays() {
            return closerLooks < CLOSER_LOOK_TRIAL || closerLookPrunes * 64 >= closerLooks;
        }

        /**
         * What the search, out of time, leaves open about its best set: each part of the objective
         * bounded over every set from the root (where the search is back to when it stops), the
         * first part where the best set is above its bound. A set better than the best adds no more
         * violations than it, so the bounds for priority and count count within the budgets that
         * many violations allow.
         */
        OptimalityGap gap() {
            int more = tied.fewestMoreViolations(0, Long.MAX_VALUE, freed, sum);
            long violations = sum.violations() + (more == TiedCountBound.NONE ? 0 : more);
            if (violations < bestObjective.pdbViolations()) {
                return new OptimalityGap(OptimalityGap.Part.PDB_VIOLATIONS, bestObjective.pdbViolations(), violations);
            }
            long highest = bestObjective.highestPriority();
            for (int c = 0; c < classes.length && classPriority[c] < highest; c++) {
                long atLeast = Math.max(sum.highest(), classPriority[c]); // pods that must go count too
                if (atLeast >= highest) {
                    break; // so are the later classes, whose priorities only rise
                }
                // a set of lower highest priority is better only with no more violations than the best
                int moreUpTo = tied.fewestMoreViolations(0, classPriority[c], freed, sum);
                if (moreUpTo != TiedCountBound.NONE && sum.violations() + moreUpTo <= bestObjective.pdbViolations()) {
                    return new OptimalityGap(OptimalityGap.Part.HIGHEST_PRIORITY, highest, atLeast);
                }
            }
            if (pool.workBeforeCount()) { // work lost comes next, and no closer bound on it is kept than what must go
                long atLeast = ObjectiveSum.over(pool, pool.forced).work();
                return bestObjective.workLost() > atLeast
                        ? new OptimalityGap(OptimalityGap.Part.WORK_LOST, bestObjective.workLost(), atLeast)
                        : new OptimalityGap(OptimalityGap.Part.TIE_BREAKS, bestObjective.victims(), bestObjective.victims());
            }
            // a set with fewer victims is better only with no more violations than the best
            int slack = (int) Math.min(Integer.MAX_VALUE - 1, bestObjective.pdbViolations() - sum.violations());
            int fewest = tied.fewest(0, highest, freed, sum, slack, Integer.MAX_VALUE);
            if (fewest != TiedCountBound.NONE && cover != null && cover.covers(endFor(highest), slack)) {
                fewest = cover.fewest(0, freed, fewest, Integer.MAX_VALUE);
            }
            long victims = sum.count() + (fewest == TiedCountBound.NONE ? 0 : fewest);
            return victims < bestObjective.victims()
                    ? new OptimalityGap(OptimalityGap.Part.VICTIMS, bestObjective.victims(), victims)
                    : new OptimalityGap(OptimalityGap.Part.TIE_BREAKS, bestObjective.victims(), bestObjective.victims());
        }

        /**
         * Aids that cost a pass over the pool, for searches that did not end within {@link #HARD}
         * states: the surrogate bound's multipliers tuned on the root (for the count of sets that
         * may tie the bound, and for violations if it has any), a greedy set to beat weighed by
         * them, the dominance rule and the cover table for sets that may tie the set to beat. All
         * are safe to add mid-search (any multipliers give a sound bound; an offered set is only
         * kept when better; the rule only skips sets some optimal set is not; the table answers
         * only for classes and violations it holds).
         */
        private void turnedHard() {
            Objective bound = bound();
            if (bound != null) {
                long[] rootFreed = new long[dims];
                for (int i = 0; i < pool.size(); i++) {
                    if (pool.forced[i]) {
                        pool.addFreed(rootFreed, i, 1);
                    }
                }
                tied.tune(bound, rootFreed, ObjectiveSum.over(pool, pool.forced));
            }
            boolean[] greedy = GreedyCover.find(pool, tied.tunedPerUnit());
            if (greedy != null) {
                offerWithinLimits(greedy, FloorLedger.over(pool.floors, greedy).holds());
            }
            dominance = DominanceRule.of(pool, classes);
            bound = bound();
            if (bound != null && !pool.workBeforeCount()) { // the table tells counts, read before work lost only here
                ObjectiveSum root = ObjectiveSum.over(pool, pool.forced);
                cover = CoverTable.build(pool, classes, endFor(bound.highestPriority()),
                        (int) Math.min(Integer.MAX_VALUE - 1, Math.max(0, bound.pdbViolations() - root.violations())),
                        (int) Math.min(Integer.MAX_VALUE - 2, bound.victims() - root.count()), deadline);
            }
        }

        /** The end of the classes of priority at most {@code highest}. */
        private int endFor(long highest) {
            int end = 0;
            while (end < classes.length && classPriority[end] <= highest) {
                end++;
            }
            return end;
        }

        /** A hard limit is broken: a queue floor, or a budget in strict mode. */
        private boolean breaksLimit() {
            return !floors.holds() || (pool.strictPdb && sum.violations() > 0);
        }

        /** How many pods of this class alone would cover everything still missing. */
        private int enoughFrom(int i) {
            int most = 0;
            for (int d = 0; d < dims; d++) {
                long missing = pool.need[d] - freed[d];
                if (missing > 0 && pool.frees[i][d] > 0) {
                    most = (int) Math.max(most, Math.min(Integer.MAX_VALUE, ceilDiv(missing, pool.frees[i][d])));
                } else if (missing > 0) {
                    return Integer.MAX_VALUE; // this class cannot finish alone: any count may help
                }
            }
            return most;
        }


        private boolean reachable(int c) {
            for (int d = 0; d < dims; d++) {
                if (freed[d] + suffixTotal[c][d] < pool.need[d]) {
                    return false;
                }
            }
            return true;
        }

        /** A lower bound on the further victims any completion needs, from classes c on. */
        private int fewestMorePods(int c) {
            int most = 0;
            for (int d = 0; d < dims; d++) {
                long missing = pool.need[d] - freed[d];
                if (missing <= 0) {
                    continue;
                }
                long[] prefix = prefix(c, d);
                int lo = 1;
                int hi = prefix.length - 1;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (prefix[mid] >= missing) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                most = Math.max(most, lo);
            }
            return most;
        }

        private void take(int i) {
            chosen[i] = true;
            pool.addFreed(freed, i, 1);
            sum.add(i);
            floors.draw(i);
        }

        private void release(int i) {
            chosen[i] = false;
            pool.addFreed(freed, i, -1);
            sum.remove(i);
            floors.undraw(i);
        }

        private static long ceilDiv(long a, long b) {
            return (a + b - 1) / b;
        }
    }
}
