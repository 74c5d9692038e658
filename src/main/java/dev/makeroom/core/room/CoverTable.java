package dev.makeroom.core.room;

import dev.makeroom.core.model.DisruptionBudget;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * The exact fewest further pods that free what is still missing, for every suffix of the search's
 * classes: a count bound with no integrality gap, for the searches the other bounds leave hard.
 *
 * <p><b>Design.</b> On full nodes with cpu and memory binding together, the best relaxation of the
 * count (the tuned surrogate) sits within a pod of the optimum, and proving that last pod took the
 * search hundreds of thousands of states. Yet the problem the count bound asks, over classes of
 * interchangeable pods, is small: how few pods, at most {@code cap} of each class, free at least
 * {@code (x, y)} of two resources. This table answers it exactly by dynamic programming over the
 * classes from the last one back: for each suffix of classes and each count k, the Pareto frontier
 * of what k pods from it can free (x ascending, y descending). A suffix's frontier for k is the
 * best of its first class taking j pods and the next suffix's frontier for k − j. Amounts are
 * capped at the root's need (more than the need is worth no more), so a frontier holds at most as
 * many points as there are distinct amounts up to the need, and a query is a binary search.
 *
 * <p>The frontier's two axes are the most binding resources, large needs before small ones. Other
 * resources with small needs (gpus, a pod count) ride along as a level: a frontier per level
 * means "frees at least this many", capped at the need. A third large one is ignored, as are queue
 * floors and the part of a budget the set being
 * built has already spent: every one of those only drops a constraint, so the table stays a lower
 * bound (a relaxation), exact on the shapes that made it worth building. Large amounts are counted
 * in units of their greatest common divisor, or, where the need would not fit an int, in coarser
 * units, every amount and the need rounded up (a covering set still covers in those units).
 *
 * <p>A pod may go beyond its budget's allowance only as one of {@code slack} violations; each class
 * is capped at its budgets' allowance plus the slack (all of the slack in every class: looser, so
 * still a relaxation). The table is for classes {@code 0..end} (those of priority at most the set to
 * beat's highest) and counts up to {@code maxCount}; a query needing more learns only that.
 */
final class CoverTable {

    private static final long SMALL_NEED = 16;   // a resource needing at most this many units is a level
    private static final int MOST_LEVELS = 64;
    private static final long MOST_POINTS = 1 << 19;    // 4 MB of points: beyond that the table is not built
    private static final long MOST_FRONTIERS = 1 << 18; // and 2 MB of their places

    private final CandidatePool pool;
    private final int end;
    private final int slack;
    private final int maxCount;
    private final int xDim;
    private final int yDim;               // -1 with one large resource
    private final long xUnit;
    private final long yUnit;
    private final long xNeed;
    private final long yNeed;
    private final int[] smallDims;
    private final long[] smallNeed;
    private final int levels;
    private final int[] from;             // [(c * (maxCount + 1) + k) * levels + level] -> first point
    private final int[] size;
    private long[] points;                // x << 32 | y, by frontier
    private int used;

    private CoverTable(CandidatePool pool, int end, int slack, int maxCount, int xDim, int yDim, int[] smallDims) {
        this.pool = pool;
        this.end = end;
        this.slack = slack;
        this.maxCount = maxCount;
        this.xDim = xDim;
        this.yDim = yDim;
        this.smallDims = smallDims;
        this.smallNeed = new long[smallDims.length];
        int product = 1;
        for (int s = 0; s < smallDims.length; s++) {
            smallNeed[s] = pool.need[smallDims[s]];
            product *= (int) smallNeed[s] + 1;
        }
        this.levels = product;
        this.xUnit = unit(xDim);
        this.yUnit = yDim < 0 ? 1 : unit(yDim);
        this.xNeed = inUnits(pool.need[xDim], xUnit);
        this.yNeed = yDim < 0 ? 0 : inUnits(pool.need[yDim], yUnit);
        int frontiers = (end + 1) * (maxCount + 1) * levels;
        this.from = new int[frontiers];
        this.size = new int[frontiers];
        this.points = new long[1024];
    }

    /**
     * The table for classes {@code 0..end} of the search (by rising priority), counts up to
     * {@code maxCount} and {@code slack} pods beyond their budgets; null where it does not apply (no
     * resource with a large need), would grow too large or is not done by {@code deadline} (the
     * search it serves would have no time left to use it).
     */
    static CoverTable build(CandidatePool pool, int[][] classes, int end, int slack, int maxCount, Deadline deadline) {
        Integer[] missing = IntStream.range(0, pool.need.length).filter(d -> pool.need[d] > 0)
                .boxed().toArray(Integer[]::new);
        // the axes: large needs before small ones, the most binding first
        Arrays.sort(missing, Comparator.<Integer>comparingInt(d -> pool.need[d] > SMALL_NEED ? 0 : 1)
                .thenComparing(d -> -share(pool, classes, end, d)));
        if (missing.length == 0 || maxCount < 0) {
            return null;
        }
        int[] small = new int[0];
        int product = 1;
        for (int k = 2; k < missing.length; k++) {
            int d = missing[k];
            if (pool.need[d] <= SMALL_NEED && product * (pool.need[d] + 1) <= MOST_LEVELS) {
                small = Arrays.copyOf(small, small.length + 1);
                small[small.length - 1] = d;
                product *= (int) pool.need[d] + 1;
            }
        }
        if ((long) (end + 1) * (maxCount + 1) * product > MOST_FRONTIERS) {
            return null;
        }
        CoverTable table = new CoverTable(pool, end, slack, maxCount, missing[0], missing.length > 1 ? missing[1] : -1,
                small);
        return table.fill(classes, deadline) ? table : null;
    }

    /** How tightly the need binds resource d: its share of what classes {@code 0..end} hold of it. */
    private static double share(CandidatePool pool, int[][] classes, int end, int d) {
        double total = 0;
        for (int c = 0; c < end; c++) {
            total += (double) pool.frees[classes[c][0]][d] * classes[c].length;
        }
        return total == 0 ? Double.POSITIVE_INFINITY : pool.need[d] / total;
    }

    /** Whether this table may answer for classes {@code c..queryEnd} with {@code slack} more violations. */
    boolean covers(int queryEnd, int querySlack) {
        return queryEnd <= end && querySlack <= slack;
    }

    /**
     * The fewest further pods from classes {@code c..end} that free what {@code freed} leaves
     * missing, given that fewer than {@code atLeast} cannot; {@code enough + 1} (or
     * {@code maxCount + 1}, the lesser) when more than that are needed.
     */
    int fewest(int c, long[] freed, int atLeast, int enough) {
        long x = inUnits(pool.need[xDim] - freed[xDim], xUnit);
        long y = yDim < 0 ? 0 : inUnits(pool.need[yDim] - freed[yDim], yUnit);
        int level = 0;
        for (int s = 0; s < smallDims.length; s++) {
            level = level * ((int) smallNeed[s] + 1) + (int) Math.max(0, pool.need[smallDims[s]] - freed[smallDims[s]]);
        }
        int last = Math.min(enough, maxCount);
        for (int k = Math.max(0, atLeast); k <= last; k++) {
            if (reaches(index(c, k, level), x, y)) {
                return k;
            }
        }
        return Math.max(atLeast, last + 1);
    }

    private boolean reaches(int frontier, long x, long y) {
        int lo = from[frontier];
        int hi = lo + size[frontier];
        while (lo < hi) { // the first point with enough of x: it has the most of y among those
            int mid = (lo + hi) >>> 1;
            if ((points[mid] >>> 32) >= x) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo < from[frontier] + size[frontier] && (points[lo] & 0xffffffffL) >= y;
    }

    private int index(int c, int k, int level) {
        return (c * (maxCount + 1) + k) * levels + level;
    }

    private boolean fill(int[][] classes, Deadline deadline) {
        int base = index(end, 0, 0);
        from[base] = append(0);
        size[base] = 1;
        long[] scratch = new long[64];
        int[] digits = new int[smallDims.length];
        for (int c = end - 1; c >= 0; c--) {
            if (deadline.passed()) {
                return false;
            }
            int pod = classes[c][0];
            int cap = classes[c].length;
            for (int b : pool.budgetsOf[pod]) {
                cap = (int) Math.min(cap, DisruptionBudget.mostWith(pool.allowed[b], slack));
            }
            long ax = Math.min(xNeed, inUnits(pool.frees[pod][xDim], xUnit));
            long ay = yDim < 0 ? 0 : Math.min(yNeed, inUnits(pool.frees[pod][yDim], yUnit));
            for (int k = 0; k <= maxCount; k++) {
                for (int level = 0; level < levels; level++) {
                    decode(level, digits);
                    int n = 0;
                    for (int j = 0; j <= Math.min(cap, k); j++) {
                        int source = index(c + 1, k - j, levelBefore(digits, pod, j));
                        int count = size[source];
                        if (n + count > scratch.length) {
                            scratch = Arrays.copyOf(scratch, Math.max(2 * scratch.length, n + count));
                        }
                        for (int p = from[source]; p < from[source] + count; p++) {
                            long px = Math.min(xNeed, (points[p] >>> 32) + j * ax);
                            long py = Math.min(yNeed, (points[p] & 0xffffffffL) + j * ay);
                            scratch[n++] = px << 32 | py;
                        }
                    }
                    int at = index(c, k, level);
                    from[at] = used;
                    size[at] = keepFrontier(scratch, n);
                    if (used > MOST_POINTS) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** The small resources' missing units a level stands for, into {@code digits}. */
    private void decode(int level, int[] digits) {
        for (int s = smallDims.length - 1; s >= 0; s--) {
            int radix = (int) smallNeed[s] + 1;
            digits[s] = level % radix;
            level /= radix;
        }
    }

    /**
     * The level a suffix must reach so that, with {@code j} more pods like {@code pod}, its small
     * resources reach the level of {@code digits}.
     */
    private int levelBefore(int[] digits, int pod, int j) {
        int before = 0;
        for (int s = 0; s < smallDims.length; s++) {
            long rest = Math.max(0, digits[s] - (long) j * pool.frees[pod][smallDims[s]]);
            before = before * ((int) smallNeed[s] + 1) + (int) rest;
        }
        return before;
    }

    /** Appends the points of {@code scratch[0..n)} no other point dominates, x ascending; how many. */
    private int keepFrontier(long[] scratch, int n) {
        Arrays.sort(scratch, 0, n);
        int kept = 0;
        long mostY = -1;
        int start = used;
        for (int p = n - 1; p >= 0; p--) { // largest x first: a point stays if it has more y than any before
            long py = scratch[p] & 0xffffffffL;
            if (py > mostY) {
                append(scratch[p]);
                mostY = py;
                kept++;
            }
        }
        reverse(start, used);
        return kept;
    }

    private int append(long point) {
        if (used == points.length) {
            points = Arrays.copyOf(points, 2 * points.length);
        }
        points[used] = point;
        return used++;
    }

    private void reverse(int lo, int hi) {
        for (hi--; lo < hi; lo++, hi--) {
            long t = points[lo];
            points[lo] = points[hi];
            points[hi] = t;
        }
    }

    /** The unit resource d is counted in: the amounts' greatest common divisor, coarser while the need would not fit an int. */
    private long unit(int d) {
        long gcd = 0;
        for (int i = 0; i < pool.size(); i++) {
            gcd = gcd(gcd, pool.frees[i][d]);
        }
        long unit = Math.max(1, gcd);
        while (pool.need[d] / unit >= Integer.MAX_VALUE) {
            unit *= 2;
        }
        return unit;
    }

    /**
     * An amount in whole units, rounded up: a set that frees a need frees it in units too, since
     * its amounts' rounded sum is a whole number at least the exact one (with the divisor as the
     * unit nothing is rounded).
     */
    private static long inUnits(long amount, long unit) {
        return amount <= 0 ? 0 : (amount + unit - 1) / unit;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
