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
 *       memory-heavy pods compete, where each resource alone is weak. It costs a sort, so it is
 *       only taken when the per-resource bound does not already settle the comparison.</li>
 * </ul>
 * Pods are read in classes {@code c..end} of the search (classes come in rising priority, so a
 * priority limit is an end), walking orders sorted once per search (by each resource, by each
 * tie-break) and skipping pods outside the range: no sorting per state. For the parts of the
 * objective compared at equal counts, the bound's k pods add at least the k smallest priorities
 * (the first k pods from class c on) and, per tie-break, the k smallest costs of the pods allowed.
 */
final class TiedCountBound {

    static final int NONE = Integer.MAX_VALUE;
    private static final int INDEX_BITS = 20;                      // pools hold far fewer pods than 2^20
    private static final long PACKABLE = 1L << (62 - INDEX_BITS);  // keys this large still pack
    // weights are compared as fixed-point longs, rounded up, so that rounding never loosens the bound
    // (a weight is at most the number of resources: it fits in the key's upper half)
    private static final double ONE = 1 << 20;

    private final CandidatePool pool;
    private final int[][] classes;
    private final int[] classPriority;
    private final int dims;
    private final int[] classOf;      // pod -> its class, -1 for pods in none
    private final int[][] byAmount;   // [d]: every pod of a class, largest amount of d first (built on first use)
    private final int[][] byCost;     // [t]: every pod of a class, least tie-break t cost first (built on first use)
    private final int[] capLeft;
    private final long[] keys;
    private final long[] more = new long[TieBreak.COUNT];
    private int end;

    TiedCountBound(CandidatePool pool, int[][] classes, int[] classPriority) {
        this.pool = pool;
        this.classes = classes;
        this.classPriority = classPriority;
        this.dims = pool.need.length;
        this.classOf = new int[pool.size()];
        Arrays.fill(classOf, -1);
        for (int c = 0; c < classes.length; c++) {
            for (int i : classes[c]) {
                classOf[i] = c;
            }
        }
        this.byAmount = new int[dims][];
        this.byCost = new int[TieBreak.COUNT][];
        this.capLeft = new int[pool.allowed.length];
        this.keys = new long[pool.size()];
    }

    /**
     * The fewest further pods from classes {@code c..} of priority at most {@code highest} that keep
     * every budget and free what {@code freed} still lacks; {@link #NONE} when they cannot. With
     * {@code sum} null, budgets are not counted at all.
     */
    int fewest(int c, long highest, long[] freed, ObjectiveSum sum) {
        return fewest(c, highest, freed, sum, Integer.MAX_VALUE);
    }

    /**
     * As above, but once the bound is known to exceed {@code enough} (a completion that large cannot
     * win) it may stop short of its strongest value.
     */
    int fewest(int c, long highest, long[] freed, ObjectiveSum sum, int enough) {
        if (!allowUpTo(c, highest)) {
            return NONE;
        }
        int most = 0;
        int missingDims = 0;
        for (int d = 0; d < dims; d++) {
            long missing = pool.need[d] - freed[d];
            if (missing > 0) {
                missingDims++;
                resetCaps(sum);
                int k = countToReach(c, d, missing);
                if (k == NONE) {
                    return NONE;
                }
                most = Math.max(most, k);
            }
        }
        if (missingDims > 1 && most <= enough) { // the surrogate costs a sort: only when it may decide
            most = Math.max(most, surrogate(c, freed, sum));
        }
        return most;
    }

    /**
     * Whether pods from classes {@code c..} of priority at most {@code highest}, within their
     * budgets, might still free what is missing: each resource on its own (a relaxation: true may
     * be wrong, false never is).
     */
    boolean mayCover(int c, long highest, long[] freed, ObjectiveSum sum) {
        if (!allowUpTo(c, highest)) {
            return false;
        }
        for (int d = 0; d < dims; d++) {
            long missing = pool.need[d] - freed[d];
            if (missing > 0) {
                resetCaps(sum);
                if (countToReach(c, d, missing) == NONE) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Allows classes {@code c..end} where the priority is at most {@code highest}; false when that is none. */
    private boolean allowUpTo(int c, long highest) {
        end = c;
        while (end < classes.length && classPriority[end] <= highest) {
            end++;
        }
        return end > c;
    }

    private void resetCaps(ObjectiveSum sum) {
        for (int b = 0; b < capLeft.length; b++) {
            capLeft[b] = sum == null ? Integer.MAX_VALUE : Math.max(0, pool.allowed[b] - sum.spent(b));
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

    private int countToReach(int c, int d, long missing) {
        long reached = 0;
        int taken = 0;
        for (int i : byAmount(d)) {
            if (pool.frees[i][d] <= 0) {
                break;
            }
            if (inRange(i, c, end) && allowedAndTaken(i)) {
                reached += pool.frees[i][d];
                taken++;
                if (reached >= missing) {
                    return taken;
                }
            }
        }
        return NONE;
    }

    private int surrogate(int c, long[] freed, ObjectiveSum sum) {
        int n = 0;
        int target = 0;
        for (int d = 0; d < dims; d++) {
            if (pool.need[d] > freed[d]) {
                target++;
            }
        }
        for (int k = c; k < end; k++) {
            for (int i : classes[k]) {
                double weight = pool.shareOfMissing(i, freed);
                // negated so that an ascending sort puts the heaviest first; the index rides in the low bits
                keys[n++] = (-(long) Math.ceil(weight * ONE) << 32) | i;
            }
        }
        Arrays.sort(keys, 0, n);
        resetCaps(sum);
        long reachAt = (long) (target * ONE);
        long reached = 0;
        int taken = 0;
        for (int j = 0; j < n; j++) {
            int i = (int) (keys[j] & 0xffffffffL);
            if (allowedAndTaken(i)) {
                reached += -(keys[j] >> 32);
                taken++;
                if (reached >= reachAt) {
                    return taken;
                }
            }
        }
        return NONE;
    }

    /**
     * The fewest PDB violations any completion from classes {@code c..} adds. Per missing resource:
     * what pods within their budgets' allowance can free at most is what largest first frees (the
     * matroid again); every pod beyond an allowance adds a violation, so the rest needs at least as
     * many violations as the fewest budgeted pods whose largest amounts cover it.
     */
    int fewestMoreViolations(int c, long[] freed, ObjectiveSum sum) {
        int most = 0;
        int all = classes.length;
        for (int d = 0; d < dims && c < all; d++) {
            long missing = pool.need[d] - freed[d];
            if (missing <= 0) {
                continue;
            }
            resetCaps(sum);
            long rest = missing;
            for (int i : byAmount(d)) {
                if (rest <= 0 || pool.frees[i][d] <= 0) {
                    break;
                }
                if (inRange(i, c, all) && allowedAndTaken(i)) {
                    rest -= pool.frees[i][d];
                }
            }
            int violations = 0;
            for (int i : byAmount(d)) {
                if (rest <= 0 || pool.frees[i][d] <= 0) {
                    break;
                }
                if (inRange(i, c, all) && pool.budgetsOf[i].length > 0) {
                    rest -= pool.frees[i][d];
                    violations++;
                }
            }
            most = Math.max(most, rest > 0 ? NONE : violations);
        }
        return most;
    }

    /** The least priority sum that {@code k} pods from class {@code c} on add: the first k, classes rising in priority. */
    long leastPrioritySum(int c, int k) {
        long total = 0;
        for (int at = c; k > 0 && at < classes.length; at++) {
            int here = Math.min(k, classes[at].length);
            total += (long) here * classPriority[at];
            k -= here;
        }
        return total;
    }

    /** The least tie-break costs that {@code k} pods allowed by the last {@link #fewest} call add (reused array). */
    long[] leastTieBreaks(int c, int k) {
        for (int t = 0; t < TieBreak.COUNT; t++) {
            long total = 0;
            int left = k;
            int[] order = byCost(t);
            for (int j = 0; left > 0 && j < order.length; j++) {
                int i = order[j];
                if (inRange(i, c, end)) {
                    total += pool.tieBreakCost(i, t);
                    left--;
                }
            }
            more[t] = total;
        }
        return more;
    }

    // most searches end before a tie needs these orders: they are sorted when first read
    private int[] byAmount(int d) {
        if (byAmount[d] == null) {
            byAmount[d] = sorted(i -> -pool.frees[i][d]);
        }
        return byAmount[d];
    }

    private int[] byCost(int t) {
        if (byCost[t] == null) {
            byCost[t] = sorted(i -> pool.tieBreakCost(i, t));
        }
        return byCost[t];
    }

    private boolean inRange(int i, int c, int end) {
        return classOf[i] >= c && classOf[i] < end;
    }

    /**
     * The pods of the classes by rising {@code key}. Sorted as packed longs (key above, index below:
     * no boxing, this runs for most searched nodes) while the keys fit, boxed otherwise.
     */
    private int[] sorted(java.util.function.IntToLongFunction key) {
        int[] pods = IntStream.range(0, pool.size()).filter(i -> classOf[i] >= 0).toArray();
        long[] packed = new long[pods.length];
        for (int j = 0; j < pods.length; j++) {
            long k = key.applyAsLong(pods[j]);
            if (k < -PACKABLE || k >= PACKABLE) {
                return Arrays.stream(pods).boxed().sorted(Comparator.comparingLong(key::applyAsLong))
                        .mapToInt(Integer::intValue).toArray();
            }
            packed[j] = (k << INDEX_BITS) | pods[j];
        }
        Arrays.sort(packed);
        for (int j = 0; j < pods.length; j++) {
            pods[j] = (int) (packed[j] & ((1L << INDEX_BITS) - 1));
        }
        return pods;
    }
}
