package dev.makeroom.core.room;

import dev.makeroom.core.model.DisruptionBudget;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Lower bounds on what a set being built still needs: the further victims, for the moment it can
 * only win by count (its PDB violations and highest priority already equal those of the set to
 * beat), and the further PDB violations.
 *
 * <p><b>Design.</b> A set winning by count may only add pods of priority at most the bound's, and
 * only pods whose budgets still allow a disruption (anything else makes it worse on an earlier
 * component; a set that may still add {@code slack} violations may take that many pods beyond their
 * budgets' allowance). Over those pods these bounds are taken, the largest wins:
 * <ul>
 *   <li>per resource, the fewest pods whose amounts reach what is missing, taking largest first
 *       and from each budget no more than it still allows. A pod in several budgets counts against
 *       its first only (fewer limits: still a lower bound). Sets that keep one limit per budget form
 *       a matroid (with {@code slack}, a transversal one: each pod fills a place its budget allows or
 *       one of the slack's), so largest first is the most any k pods can free: the count is exact
 *       for one resource alone;</li>
 *   <li>all missing resources at once (a surrogate of the cover constraints): a pod's weight is the
 *       sum over missing resources of a multiplier times the share of the missing amount it frees,
 *       each share at most 1. A covering set's weights sum to at least the multipliers' sum, so the
 *       fewest pods whose largest weights reach it is a lower bound, for any multipliers. This is
 *       what binds when cpu-heavy and memory-heavy pods compete, where each resource alone is weak.
 *       Equal multipliers are one choice; once a search turns hard they are also {@link #tune
 *       tuned} on its root ({@link SurrogateDirection}), which on full nodes lifts the bound from
 *       about half the optimum to within a pod of it. Pods of a class weigh alike, so the classes
 *       are sorted, not the pods; it still costs a sort, so it is only taken when the per-resource
 *       bound does not already settle the comparison.</li>
 * </ul>
 * The violations bound is built alike: what the pods within their allowances (and pods in no
 * budget) free at most, per resource and over the surrogate's weights, leaves a rest that needs at
 * least as many further pods, each a violation, as the largest remaining amounts take.
 *
 * <p>Pods are read in classes {@code c..end} of the search (classes come in rising priority, so a
 * priority limit is an end), walking orders sorted once per search (the classes by each resource,
 * the pods by each tie-break) and skipping those outside the range. For the parts of the objective
 * compared at equal counts, the bound's k pods add at least the k smallest priorities (the first k
 * pods from class c on) and, per tie-break, the k smallest costs of the pods allowed.
 */
final class TiedCountBound {

    static final int NONE = Integer.MAX_VALUE;
    private static final int INDEX_BITS = 20;                      // pools hold far fewer pods than 2^20
    private static final long PACKABLE = 1L << (62 - INDEX_BITS);  // keys this large still pack
    // weights are compared as fixed-point longs, rounded up, so that rounding never loosens the bound
    // (a weight is at most 1: it fits in the key's upper half)
    private static final double ONE = 1 << 20;
    // a weight's floating-point error is far below this (in units of 1/ONE): rounding up past it
    // keeps every sum sound
    private static final double ROUNDING = 1e-3;
    private static final int BISECTIONS = 12;

    private final CandidatePool pool;
    private final int[][] classes;
    private final int[] classPriority;
    private final int dims;
    private final int[] classOf;      // pod -> its class, -1 for pods in none
    private final int[][] classesByAmount; // [d]: the classes, largest amount of d first (built on first use)
    private final int[][] byCost;     // [t]: every pod of a class, least tie-break t cost first (built on first use)
    private final int[] capLeft;      // per budget, what it still allows in the current count, valid where stamped
    private final int[] capStamp;
    private int capRound;
    private ObjectiveSum capsOf;
    private final long[] keys;
    private final long[] more = new long[TieBreak.COUNT];
    private final double[] lambda;    // the tuned multipliers for the state at hand (reused)
    private final int[] order;        // classes in the Lagrangian's order (reused)
    private final double[] weightOf;  // per class, its pods' surrogate weight (reused)
    private double slope;
    private final double[] cap;       // per resource, the most a pod's weight takes from it (reused)
    private final double[] perAmount; // per resource, a pod's weight per unit freed (reused)
    private final int[] freeOf;       // per class, its pods a violations bound counted within their allowance (reused)
    private final int[] beyond;       // per sorted class, its pods beyond its budget's allowance (reused)
    // the tuned multipliers per unit of each resource, for the count and for violations; null until tuned
    private double[] countPerUnit;
    private double[] violationsPerUnit;
    private int end;
    private int slack;                // how many pods in all may go beyond their budgets' allowance in the bound at hand
    private int slackLeft;

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
        this.classesByAmount = new int[dims][];
        this.byCost = new int[TieBreak.COUNT][];
        this.capLeft = new int[pool.allowed.length];
        this.capStamp = new int[pool.allowed.length];
        this.keys = new long[pool.size()];
        this.lambda = new double[dims];
        this.cap = new double[dims];
        this.order = new int[classes.length];
        this.weightOf = new double[classes.length];
        this.perAmount = new double[dims];
        this.freeOf = new int[classes.length];
        this.beyond = new int[classes.length];
    }

    /**
     * The fewest further pods from classes {@code c..} of priority at most {@code highest} that keep
     * every budget and free what {@code freed} still lacks; {@link #NONE} when they cannot. With
     * {@code sum} null, budgets are not counted at all.
     */
    int fewest(int c, long highest, long[] freed, ObjectiveSum sum) {
        return fewest(c, highest, freed, sum, 0, Integer.MAX_VALUE);
    }

    /**
     * As above, for sets that may still add up to {@code slack} violations (that many of the pods
     * may go beyond their budgets' allowance), and once the bound is known to exceed
     * {@code enough} (a completion that large cannot win) it may stop short of its strongest value.
     */
    int fewest(int c, long highest, long[] freed, ObjectiveSum sum, int slack, int enough) {
        if (!allowUpTo(c, highest)) {
            return NONE;
        }
        this.slack = slack;
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
            most = Math.max(most, surrogate(c, freed, sum, enough));
        }
        return most;
    }

    /**
     * Whether pods from classes {@code c..} of priority at most {@code highest}, within their
     * budgets but for {@code slack} of them, might still free what is missing: each resource on its
     * own (a relaxation: true may be wrong, false never is).
     */
    boolean mayCover(int c, long highest, long[] freed, ObjectiveSum sum, int slack) {
        if (!allowUpTo(c, highest)) {
            return false;
        }
        this.slack = slack;
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

    /**
     * Starts a new count of what each budget still allows, after {@code sum}'s victims (none
     * counted when null). Lazily: a budget's allowance is read on its first use in the count (a
     * pool may have many budgets, and the bounds reset them for every resource of every state).
     */
    private void resetCaps(ObjectiveSum sum) {
        capsOf = sum;
        if (++capRound == 0) { // wrapped: forget every stamp
            Arrays.fill(capStamp, 0);
            capRound = 1;
        }
        slackLeft = slack;
    }

    /** Budget {@code b}'s allowance left in the current count. */
    private int capLeft(int b) {
        if (capStamp[b] != capRound) {
            capStamp[b] = capRound;
            capLeft[b] = capsOf == null ? Integer.MAX_VALUE : (int) DisruptionBudget.leftAt(capsOf.spent(b), pool.allowed[b]);
        }
        return capLeft[b];
    }

    /** How many of {@code wanted} pods like {@code i} (same budgets) its first budget and the slack still allow; takes them. */
    private int takeAllowed(int i, int wanted) {
        int[] budgets = pool.budgetsOf[i];
        if (budgets.length == 0) {
            return wanted;
        }
        int allowed = Math.min(wanted, capLeft(budgets[0]));
        capLeft[budgets[0]] -= allowed;
        int beyond = Math.min(wanted - allowed, slackLeft);
        slackLeft -= beyond;
        return allowed + beyond;
    }

    private int countToReach(int c, int d, long missing) {
        long reached = 0;
        int taken = 0;
        for (int k : classesByAmount(d)) {
            long amount = pool.frees[classes[k][0]][d];
            if (amount <= 0) {
                break;
            }
            if (k >= c && k < end) {
                int available = takeAllowed(classes[k][0], classes[k].length);
                long needed = (missing - reached + amount - 1) / amount;
                if (needed <= available) {
                    return taken + (int) needed;
                }
                reached += available * amount;
                taken += available;
            }
        }
        return NONE;
    }

    /**
     * The surrogate bound: once {@link #tune tuned}, with the tuned multipliers (kept per unit of
     * each resource, so they carry over as what is missing shrinks), and, unless that already
     * exceeds {@code enough}, with equal ones; the larger.
     */
    private int surrogate(int c, long[] freed, ObjectiveSum sum, int enough) {
        double k = tunedFor(countPerUnit, freed) ? surrogateValue(c, freed, sum, lambda, false) : 0;
        if (k <= enough) {
            k = Math.max(k, surrogateValue(c, freed, sum, null, false));
        }
        return k == Double.POSITIVE_INFINITY ? NONE : (int) k;
    }

    /**
     * Fills {@link #lambda} with the multipliers {@code perUnit} for what {@code freed} leaves
     * missing; false when there are none or they weigh none of it.
     */
    private boolean tunedFor(double[] perUnit, long[] freed) {
        return perUnit != null && pool.multipliersFor(perUnit, freed, lambda);
    }

    /**
     * Tunes the surrogate's multipliers ({@link SurrogateDirection}) on {@code freed} and the
     * budgets {@code sum} leaves, for the set to beat {@code bound}: for the fewest further pods of
     * at most its highest priority adding at most its violations, and, when it has any, for the
     * fewest further violations.
     */
    void tune(Objective bound, long[] freed, ObjectiveSum sum) {
        int room = (int) Math.max(0, Math.min(Integer.MAX_VALUE - 1, bound.pdbViolations() - sum.violations()));
        countPerUnit = tuned(bound.highestPriority(), room, freed, l -> surrogateValue(0, freed, sum, l, true));
        if (bound.pdbViolations() > 0) {
            violationsPerUnit = tuned(Long.MAX_VALUE, 0, freed, l -> surrogateViolationsValue(0, freed, sum, l, true));
        }
    }

    private double[] tuned(long highest, int slack, long[] freed, java.util.function.ToDoubleFunction<double[]> strength) {
        if (!allowUpTo(0, highest)) {
            return null;
        }
        this.slack = slack;
        boolean[] missing = new boolean[dims];
        for (int d = 0; d < dims; d++) {
            missing[d] = pool.need[d] > freed[d];
        }
        double[] best = SurrogateDirection.strongest(missing, strength);
        if (best == null) {
            return null;
        }
        double[] perUnit = new double[dims];
        for (int d = 0; d < dims; d++) {
            perUnit[d] = missing[d] ? best[d] / (pool.need[d] - freed[d]) : 0;
        }
        return perUnit;
    }

    /** The multipliers per unit of each resource tuned for the first part the set to beat may lose on; null until {@link #tune tuned}. */
    double[] tunedPerUnit() {
        return violationsPerUnit != null ? violationsPerUnit : countPerUnit;
    }

    /**
     * The fewest pods of classes {@code c..end} within their budgets whose weights reach what is
     * missing: a pod's weight is the sum over missing resources of {@code lambda[d]} (1 when null)
     * times the share of the missing amount it frees (each share at most 1), over the sum of the
     * multipliers. {@code fractional}: the part of the last pod needed counts as a fraction (what
     * the tuning compares). Infinity when the pods cannot reach it; 0 when {@code lambda} weighs
     * nothing that is missing.
     */
    private double surrogateValue(int c, long[] freed, ObjectiveSum sum, double[] lambda, boolean fractional) {
        int n = startWeighing(c, freed, sum, lambda);
        if (n < 0) {
            return 0;
        }
        long reachAt = (long) ONE;
        long reached = 0;
        int taken = 0;
        for (int j = 0; j < n; j++) {
            int[] members = classes[(int) (keys[j] & 0xffffffffL)];
            long weight = -(keys[j] >> 32);
            int available = takeAllowed(members[0], members.length);
            long needed = (reachAt - reached + weight - 1) / weight;
            if (needed <= available) {
                return fractional ? taken + (double) (reachAt - reached) / weight : taken + needed;
            }
            reached += available * weight;
            taken += available;
        }
        return Double.POSITIVE_INFINITY;
    }

    /** Sorts the classes by weight ({@link #sortedClassWeights}) and starts a count of the budgets after {@code sum}. */
    private int startWeighing(int c, long[] freed, ObjectiveSum sum, double[] lambda) {
        int n = sortedClassWeights(c, freed, lambda);
        resetCaps(sum);
        return n;
    }

    /**
     * Sorts the classes {@code c..end} into {@link #keys}, heaviest first, by the weight of their
     * pods over the missing resources ({@code lambda}, equal when null), scaled so that what is
     * missing weighs {@link #ONE}; the number of classes, or -1 when the multipliers weigh nothing
     * that is missing. Pods of a class weigh alike: the classes are sorted, not their pods.
     */
    private int sortedClassWeights(int c, long[] freed, double[] lambda) {
        double total = 0;
        for (int d = 0; d < dims; d++) {
            if (pool.need[d] > freed[d]) {
                total += lambda == null ? 1 : lambda[d];
            }
        }
        if (total <= 0) {
            return -1;
        }
        // a pod's weight is the sum over d of min(cap[d], amount * perAmount[d]): no division per class
        for (int d = 0; d < dims; d++) {
            long missing = pool.need[d] - freed[d];
            cap[d] = missing > 0 ? (lambda == null ? 1 : lambda[d]) / total * ONE : 0;
            perAmount[d] = missing > 0 ? cap[d] / missing : 0;
        }
        int n = 0;
        for (int k = c; k < end; k++) {
            long[] amounts = pool.frees[classes[k][0]];
            double weight = 0;
            for (int d = 0; d < dims; d++) {
                weight += Math.min(cap[d], amounts[d] * perAmount[d]);
            }
            // negated so that an ascending sort puts the heaviest first; the class rides in the low bits
            keys[n++] = (-(long) Math.ceil(weight + ROUNDING) << 32) | k;
        }
        Arrays.sort(keys, 0, n);
        return n;
    }

    /**
     * The fewest PDB violations any completion from classes {@code c..} of priority at most
     * {@code highest} adds; {@link #NONE} when they cannot free what is missing. The largest of
     * these bounds: per missing resource, what pods within their budgets' allowance can free at most
     * is what largest first frees (the matroid again); every pod beyond an allowance adds a
     * violation, so the rest needs at least as many violations as the fewest other budgeted pods
     * whose largest amounts cover it; and the same over the surrogate's weights (equal and tuned
     * multipliers), which binds when several resources are missing at once.
     */
    int fewestMoreViolations(int c, long highest, long[] freed, ObjectiveSum sum) {
        if (pool.covers(freed)) {
            return 0;
        }
        if (!allowUpTo(c, highest)) {
            return NONE;
        }
        slack = 0;
        int most = 0;
        int missingDims = 0;
        for (int d = 0; d < dims; d++) {
            long missing = pool.need[d] - freed[d];
            if (missing > 0) {
                missingDims++;
                most = Math.max(most, violationsToReach(c, d, missing, sum));
            }
        }
        if (most != NONE && missingDims > 1) {
            most = Math.max(most, surrogateViolations(c, freed, sum, null));
            if (tunedFor(violationsPerUnit, freed)) {
                most = Math.max(most, surrogateViolations(c, freed, sum, lambda));
            }
        }
        return most;
    }

    private int violationsToReach(int c, int d, long missing, ObjectiveSum sum) {
        resetCaps(sum);
        long rest = missing;
        int[] order = classesByAmount(d);
        for (int k : order) {
            freeOf[k] = 0;
            if (rest > 0 && k >= c && k < end) {
                freeOf[k] = takeAllowed(classes[k][0], classes[k].length);
                rest -= freeOf[k] * pool.frees[classes[k][0]][d];
            }
        }
        int violations = 0;
        for (int k : order) {
            long amount = pool.frees[classes[k][0]][d];
            if (rest <= 0 || amount <= 0) {
                break;
            }
            if (k >= c && k < end && pool.budgetsOf[classes[k][0]].length > 0) {
                int beyondAllowance = classes[k].length - freeOf[k];
                long needed = (rest + amount - 1) / amount;
                if (needed <= beyondAllowance) {
                    return violations + (int) needed;
                }
                rest -= beyondAllowance * amount;
                violations += beyondAllowance;
            }
        }
        return rest > 0 ? NONE : violations;
    }

    /**
     * The fewest violations over the surrogate's weights ({@code lambda}, equal when null): each
     * budget's allowance goes to its heaviest pods and pods in no budget are free, and the weight
     * they leave missing needs at least as many further pods, each a violation, as the heaviest
     * remaining weights take to reach it.
     */
    private int surrogateViolations(int c, long[] freed, ObjectiveSum sum, double[] lambda) {
        double v = surrogateViolationsValue(c, freed, sum, lambda, false);
        return v == Double.POSITIVE_INFINITY ? NONE : (int) Math.max(0, v);
    }

    /**
     * As {@link #surrogateViolations}; {@code fractional}: the part of the last pod needed counts as
     * a fraction, and where the free pods alone reach what is missing, how far they go beyond it
     * counts below 0 (what the tuning compares).
     */
    private double surrogateViolationsValue(int c, long[] freed, ObjectiveSum sum, double[] lambda, boolean fractional) {
        int n = startWeighing(c, freed, sum, lambda);
        if (n < 0) {
            return 0;
        }
        long reachAt = (long) ONE;
        long reached = 0;
        for (int j = 0; j < n; j++) {
            int[] members = classes[(int) (keys[j] & 0xffffffffL)];
            int free = takeAllowed(members[0], members.length);
            beyond[j] = members.length - free;
            reached += free * -(keys[j] >> 32);
        }
        if (reached >= reachAt) {
            return fractional ? -(double) (reached - reachAt) / ONE : 0;
        }
        int violations = 0;
        for (int j = 0; j < n; j++) {
            long weight = -(keys[j] >> 32);
            long needed = (reachAt - reached + weight - 1) / weight;
            if (needed <= beyond[j]) {
                return fractional ? violations + (double) (reachAt - reached) / weight : violations + needed;
            }
            reached += beyond[j] * weight;
            violations += beyond[j];
        }
        return Double.POSITIVE_INFINITY;
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

    /**
     * A lower bound on the priority sum of any {@code m} further pods from the classes of the last
     * {@link #fewest} call that keep their budgets and free what is missing; {@code Long.MAX_VALUE}
     * when no {@code m} such pods exist. Once the bound exceeds {@code enough} it may stop short of
     * its strongest value.
     *
     * <p>A Lagrangian relaxation of the surrogate constraint: for any {@code μ ≥ 0}, such pods have
     * priorities summing to at least {@code μ} plus the least sum of {@code priority - μ·weight}
     * over {@code m} pods within their budgets (largest-first's matroid again, here smallest first),
     * since their weights reach 1. The best {@code μ} is found by bisection on the sign of the slope
     * (1 minus the weight of the pods chosen); every {@code μ} tried gives a sound bound.
     */
    long leastPrioritySumCovering(int c, int m, long[] freed, ObjectiveSum sum, long enough) {
        int n = sortedClassWeights(c, freed, tunedFor(countPerUnit, freed) ? lambda : null);
        if (n < 0) {
            return 0;
        }
        long lowest = Long.MAX_VALUE;
        long highest = Long.MIN_VALUE;
        for (int j = 0; j < n; j++) {
            int k = (int) (keys[j] & 0xffffffffL);
            order[j] = k;
            weightOf[k] = -(keys[j] >> 32) / ONE;
            lowest = Math.min(lowest, classPriority[k]);
            highest = Math.max(highest, classPriority[k]);
        }
        double best = lagrangian(n, m, 0, sum);
        if (best == Double.NEGATIVE_INFINITY) {
            return Long.MAX_VALUE;
        }
        if (slope > 0 && lowest < highest) { // the cheapest pods do not cover: weight is worth a price
            double low = 0;
            double high = highest - lowest;
            for (int i = 0; i < 64 && slope > 0; i++) { // until the chosen pods weigh at least 1
                high *= 2;
                best = Math.max(best, lagrangian(n, m, high, sum));
            }
            for (int i = 0; i < BISECTIONS && best <= enough; i++) {
                double mid = (low + high) / 2;
                best = Math.max(best, lagrangian(n, m, mid, sum));
                if (slope > 0) {
                    low = mid;
                } else {
                    high = mid;
                }
            }
        }
        // rounding down past the floating-point error keeps it a lower bound of a whole number
        return (long) Math.ceil(best - 1e-9 * Math.abs(best) - 1e-6);
    }

    /** The Lagrangian's value at {@code mu}, its slope left in {@link #slope}; -infinity when fewer than m pods are allowed. */
    private double lagrangian(int n, int m, double mu, ObjectiveSum sum) {
        for (int j = 1; j < n; j++) { // insertion sort by priority - mu * weight: a few dozen classes
            int k = order[j];
            double key = classPriority[k] - mu * weightOf[k];
            int at = j - 1;
            while (at >= 0 && classPriority[order[at]] - mu * weightOf[order[at]] > key) {
                order[at + 1] = order[at];
                at--;
            }
            order[at + 1] = k;
        }
        resetCaps(sum);
        double value = mu;
        double weight = 0;
        int left = m;
        for (int j = 0; j < n && left > 0; j++) {
            int k = order[j];
            int taken = takeAllowed(classes[k][0], Math.min(left, classes[k].length));
            value += taken * (classPriority[k] - mu * weightOf[k]);
            weight += taken * weightOf[k];
            left -= taken;
        }
        slope = 1 - weight;
        return left > 0 ? Double.NEGATIVE_INFINITY : value;
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
    private int[] classesByAmount(int d) {
        if (classesByAmount[d] == null) {
            classesByAmount[d] = IntStream.range(0, classes.length).boxed()
                    .sorted(Comparator.comparingLong(k -> -pool.frees[classes[k][0]][d]))
                    .mapToInt(Integer::intValue).toArray();
        }
        return classesByAmount[d];
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
