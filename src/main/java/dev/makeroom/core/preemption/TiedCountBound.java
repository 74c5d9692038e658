package dev.makeroom.core.preemption;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * A lower bound on the further victims a set being built needs, for the moment it can only win by
 * count: its PDB violations and highest priority already equal those of the set to beat.
 *
 * <p><b>Design.</b> Such a set may only add pods of priority at most the bound's, and only pods whose
 * budgets still allow a disruption (anything else makes it worse on an earlier component). Over
 * those pods two bounds are taken, the larger wins:
 * <ul>
 *   <li>per resource, the fewest pods whose amounts reach what is missing, taking largest first
 *       and from each budget no more than it still allows. A pod in several budgets counts against
 *       its first only (fewer limits: still a lower bound). Sets that keep one limit per budget form
 *       a matroid, so largest first is the most any k pods can free: the count is exact for one
 *       resource alone;</li>
 *   <li>all missing resources at once (a surrogate of the cover constraints): a pod's weight is the
 *       sum over missing resources of the share of the missing amount it frees, each share at most
 *       1. A set covering D missing resources has weights summing to at least D, so the fewest pods
 *       whose largest weights reach D is a lower bound. This is what binds when cpu-heavy and
 *       memory-heavy pods compete, where each resource alone is weak.</li>
 * </ul>
 * Pods are read in classes {@code c..} of the search (rising priority), so the pods allowed are a
 * prefix of them; their order by each resource is built once per prefix and kept. For the parts of
 * the objective compared at equal counts, the bound's k pods add at least the k smallest priorities
 * and, per tie-break, the k smallest costs of the pods allowed (sorted once per prefix too).
 */
final class TiedCountBound {

    static final int NONE = Integer.MAX_VALUE;
    // weights are compared as fixed-point longs, rounded up, so that rounding never loosens the bound
    private static final double ONE = 1 << 24;

    private final CandidatePool pool;
    private final int[][] classes;
    private final int[] classPriority;
    private final int dims;
    // per end (classes c..end allowed), [c * dims + d]: those pods, largest amount of d first
    private final int[][][] byAmount;
    // per end, [c * (COUNT + 1) + t]: prefix sums of those pods' tie-break t costs, smallest first (t = COUNT: priority)
    private final long[][][] cheapest;
    private final int[] capLeft;
    private final long[] keys;
    private final long[] more = new long[TieBreak.COUNT];
    private int end;

    TiedCountBound(CandidatePool pool, int[][] classes, int[] classPriority) {
        this.pool = pool;
        this.classes = classes;
        this.classPriority = classPriority;
        this.dims = pool.need.length;
        this.byAmount = new int[classes.length + 1][][];
        this.cheapest = new long[classes.length + 1][][];
        this.capLeft = new int[pool.allowed.length];
        this.keys = new long[pool.size()];
    }

    /**
     * The fewest further pods from classes {@code c..} of priority at most {@code highest} that keep
     * every budget and free what {@code freed} still lacks; {@link #NONE} when they cannot.
     */
    int fewest(int c, long highest, long[] freed, ObjectiveSum sum) {
        end = c;
        while (end < classes.length && classPriority[end] <= highest) {
            end++;
        }
        if (end == c) {
            return NONE;
        }
        int most = 0;
        int missingDims = 0;
        for (int d = 0; d < dims; d++) {
            long missing = pool.need[d] - freed[d];
            if (missing > 0) {
                missingDims++;
                resetCaps(sum);
                int k = countToReach(order(c, end, d), d, missing);
                if (k == NONE) {
                    return NONE;
                }
                most = Math.max(most, k);
            }
        }
        if (missingDims > 1) {
            most = Math.max(most, surrogate(c, end, freed, missingDims, sum));
        }
        return most;
    }

    private void resetCaps(ObjectiveSum sum) {
        for (int b = 0; b < capLeft.length; b++) {
            capLeft[b] = Math.max(0, pool.allowed[b] - sum.spent(b));
        }
    }

    /** Whether a pod may still be taken under its (first) budget; takes one disruption if so. */
    private boolean allowedAndTaken(int i) {
        int[] budgets = pool.budgetsOf[i];
        if (budgets.length == 0) {
            return true;
        }
        if (capLeft[budgets[0]] == 0) {
            return false;
        }
        capLeft[budgets[0]]--;
        return true;
    }

    private int countToReach(int[] largestFirst, int d, long missing) {
        long reached = 0;
        int taken = 0;
        for (int i : largestFirst) {
            if (pool.frees[i][d] <= 0) {
                break;
            }
            if (allowedAndTaken(i)) {
                reached += pool.frees[i][d];
                taken++;
                if (reached >= missing) {
                    return taken;
                }
            }
        }
        return NONE;
    }

    private int surrogate(int c, int end, long[] freed, int missingDims, ObjectiveSum sum) {
        int n = 0;
        for (int k = c; k < end; k++) {
            for (int i : classes[k]) {
                double weight = 0;
                for (int d = 0; d < dims; d++) {
                    long missing = pool.need[d] - freed[d];
                    if (missing > 0) {
                        weight += Math.min(1.0, (double) pool.frees[i][d] / missing);
                    }
                }
                // negated so that an ascending sort puts the heaviest first; the index rides in the low bits
                keys[n++] = (-(long) Math.ceil(weight * ONE) << 32) | i;
            }
        }
        Arrays.sort(keys, 0, n);
        resetCaps(sum);
        long target = (long) (missingDims * ONE);
        long reached = 0;
        int taken = 0;
        for (int j = 0; j < n; j++) {
            int i = (int) (keys[j] & 0xffffffffL);
            if (allowedAndTaken(i)) {
                reached += -(keys[j] >> 32);
                taken++;
                if (reached >= target) {
                    return taken;
                }
            }
        }
        return NONE;
    }

    /** The least priority sum that {@code k} pods allowed by the last {@link #fewest} call add. */
    long leastPrioritySum(int c, int k) {
        return cheapestPrefix(c, TieBreak.COUNT)[k];
    }

    /** The least tie-break costs that {@code k} pods allowed by the last {@link #fewest} call add (reused array). */
    long[] leastTieBreaks(int c, int k) {
        for (int t = 0; t < TieBreak.COUNT; t++) {
            more[t] = cheapestPrefix(c, t)[k];
        }
        return more;
    }

    private long[] cheapestPrefix(int c, int t) {
        long[][] forEnd = cheapest[end];
        if (forEnd == null) {
            forEnd = cheapest[end] = new long[classes.length * (TieBreak.COUNT + 1)][];
        }
        long[] prefix = forEnd[c * (TieBreak.COUNT + 1) + t];
        if (prefix == null) {
            long[] costs = pods(c, end).mapToLong(i -> t == TieBreak.COUNT ? pool.priority(i) : pool.tieBreakCost(i, t))
                    .sorted().toArray();
            prefix = new long[costs.length + 1];
            for (int j = 0; j < costs.length; j++) {
                prefix[j + 1] = prefix[j] + costs[j];
            }
            forEnd[c * (TieBreak.COUNT + 1) + t] = prefix;
        }
        return prefix;
    }

    private int[] order(int c, int end, int d) {
        int[][] forEnd = byAmount[end];
        if (forEnd == null) {
            forEnd = byAmount[end] = new int[classes.length * dims][];
        }
        int[] order = forEnd[c * dims + d];
        if (order == null) {
            order = pods(c, end).boxed().sorted(Comparator.comparingLong((Integer i) -> -pool.frees[i][d]))
                    .mapToInt(Integer::intValue).toArray();
            forEnd[c * dims + d] = order;
        }
        return order;
    }

    private IntStream pods(int c, int end) {
        return IntStream.range(c, end).flatMap(k -> Arrays.stream(classes[k]));
    }
}
