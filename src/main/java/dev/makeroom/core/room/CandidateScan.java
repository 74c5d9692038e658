package dev.makeroom.core.room;

import dev.makeroom.core.model.PodColumns;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

import java.util.Arrays;
import java.util.List;

/**
 * What the checks before a search read of a node's candidates, gathered in one pass: per resource
 * short, what each candidate frees; each candidate's share of what is short; the lowest priority;
 * and the fewest candidates that could free the most demanding short resource, among all of them
 * and among those of at most a ceiling priority; and, when asked, each tie-break's smallest costs
 * among the latter.
 *
 * <p>The fewest is the smallest {@code t} whose {@code t} largest amounts reach what is short, so
 * each count walks the gathered amounts once per short resource, keeping the {@value #TOP} largest
 * (by the insertion into a short sorted run that keeps the tie-breaks' smallest costs too) and the
 * total; a node that needs more of its pods than that (many small pods) sorts the amounts instead.
 * Every candidate node of a preemption is scanned, so one scan per thread is refilled for
 * each node rather than made anew ({@link #of}); a scan is read before the next is asked for, and
 * holds the last node's candidates until then. Given the candidates' rows in their node's
 * {@link PodColumns}, priorities, cpu, memory, tie-break costs and work lost are read there, and a
 * candidate pod itself only for another resource.
 */
final class CandidateScan {

    /** Largest amounts kept per resource during the pass: a preemption usually needs a pod or two. */
    private static final int TOP = 4;
    private static final ThreadLocal<CandidateScan> PER_THREAD = ThreadLocal.withInitial(CandidateScan::new);

    private List<PodInfo> candidates;
    private PodColumns columns;
    private int[] rows;
    private Resources deficit;
    private long ceiling;
    private int n;
    private int[] priorities = new int[32];
    private long[] amounts = new long[64];   // amounts[d * n + i]: what candidate i frees of short resource d
    private double[] shares = new double[32];
    private final long[] top = new long[TOP]; // the largest amounts, negated, ascending
    private long[] leastWorks = new long[TOP]; // the smallest works lost, ascending
    private int lowest;
    private int fewest;
    private int fewestUpToCeiling;

    private CandidateScan() {
    }

    /**
     * This thread's scan, refilled for {@code candidates}, candidate i being row {@code rows[i]} of
     * {@code columns} (both may be null: read the pods); {@code ceiling} bounds {@link #fewestUpToCeiling}.
     */
    static CandidateScan of(List<PodInfo> candidates, PodColumns columns, int[] rows, Resources deficit,
                            long ceiling) {
        return PER_THREAD.get().fill(candidates, rows == null ? null : columns, rows, deficit, ceiling);
    }

    private CandidateScan fill(List<PodInfo> candidates, PodColumns columns, int[] rows, Resources deficit,
                               long ceiling) {
        this.candidates = candidates;
        this.columns = columns;
        this.rows = rows;
        this.deficit = deficit;
        this.ceiling = ceiling;
        n = candidates.size();
        int dims = deficit.size();
        if (amounts.length < n * dims) {
            amounts = new long[Math.max(n * dims, 2 * amounts.length)];
        }
        if (shares.length < n) {
            shares = new double[Math.max(n, 2 * shares.length)];
            priorities = new int[shares.length];
        }
        lowest = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++) { // indexed: no iterator per node
            int priority = columns != null ? columns.priority(rows[i]) : candidates.get(i).priority();
            priorities[i] = priority;
            lowest = Math.min(lowest, priority);
        }
        Arrays.fill(shares, 0, n, 0);
        for (int d = 0; d < dims; d++) {
            String resource = deficit.name(d);
            boolean inColumns = columns != null && PodColumns.holds(resource);
            for (int i = 0; i < n; i++) {
                long amount = inColumns ? columns.frees(rows[i], resource) : candidates.get(i).frees(resource);
                amounts[d * n + i] = amount;
                shares[i] += Math.min(1.0, (double) amount / deficit.value(d));
            }
        }
        fewest = fewest(Long.MAX_VALUE);
        fewestUpToCeiling = ceiling == Long.MAX_VALUE ? fewest : fewest(ceiling);
        return this;
    }

    int size() {
        return n;
    }

    PodInfo candidate(int i) {
        return candidates.get(i);
    }

    int priority(int i) {
        return priorities[i];
    }

    /** Candidate {@code i}'s work lost, priced by {@code work} (from the columns where the scan has them). */
    long work(int i, WorkPrice.At work) {
        return columns != null ? work.of(columns, rows[i]) : work.of(candidates.get(i));
    }

    /** Candidate {@code i}'s cost under tie-break {@code t}. */
    long cost(TieBreak t, int i) {
        return columns != null ? t.cost(columns, rows[i]) : t.cost(candidates.get(i));
    }

    /** What candidate {@code i} frees of the {@code d}-th short resource. */
    long amount(int d, int i) {
        return amounts[d * n + i];
    }

    /** How much of what is short candidate {@code i} frees, as a sum of shares (to take the most useful first). */
    double share(int i) {
        return shares[i];
    }

    Resources deficit() {
        return deficit;
    }

    int lowestPriority() {
        return lowest;
    }

    /** The fewest candidates that could free the most demanding short resource; -1 if all of them cannot. */
    int fewest() {
        return fewest;
    }

    /** As {@link #fewest}, among the candidates of priority at most the ceiling the scan was made for. */
    int fewestUpToCeiling() {
        return fewestUpToCeiling;
    }

    long ceiling() {
        return ceiling;
    }

    /** The fewest, over the short resources, of the candidates of at most {@code bound} that could free each. */
    private int fewest(long bound) {
        int most = 0;
        for (int d = 0; d < deficit.size(); d++) {
            int taken = fewestFor(d, bound);
            if (taken < 0) {
                return -1;
            }
            most = Math.max(most, taken);
        }
        return most;
    }

    private int fewestFor(int d, long bound) {
        long need = deficit.value(d);
        int held = 0;
        long total = 0;
        for (int i = 0; i < n; i++) {
            long amount = priorities[i] > bound ? 0 : amounts[d * n + i];
            total += amount;
            if (amount > 0) { // the largest kept as the smallest of their negations
                keepSmallest(top, 0, TOP, held, -amount);
                held = Math.min(held + 1, TOP);
            }
        }
        long freed = 0;
        for (int t = 0; t < held; t++) {
            freed -= top[t];
            if (freed >= need) {
                return t + 1;
            }
        }
        if (total < need) {
            return -1;
        }
        return fewestBySorting(d, bound, need); // more than TOP pods: many small ones
    }

    /**
     * Keeps in {@code smallest}, per tie-break {@code t} from {@code t * k}, the {@code k} smallest
     * costs among the candidates of priority at most the ceiling, ascending; how many it holds. Every
     * tie-break's in one call, though the bound may read only the first: they are wanted when the
     * bound ties the cutoff up to them, which is when they usually tie too.
     */
    int smallestCosts(int k, long[] smallest) {
        int held = 0;
        for (int t = 0; t < TieBreak.COUNT; t++) { // a tie-break at a time: one column read in order
            TieBreak tieBreak = TieBreak.ALL.get(t);
            held = 0;
            for (int i = 0; i < n; i++) {
                if (priorities[i] <= ceiling) {
                    keepSmallest(smallest, t * k, k, Math.min(held, k), cost(tieBreak, i));
                    held++;
                }
            }
        }
        return Math.min(held, k);
    }

    /**
     * The sum of the {@code k} smallest works lost, priced by {@code work}, among the candidates of priority
     * at most the ceiling (fewer when fewer are there): a bound on what {@code k} of them lose.
     */
    long leastWork(int k, WorkPrice.At work) {
        if (leastWorks.length < k) {
            leastWorks = new long[Math.max(k, 2 * leastWorks.length)];
        }
        long[] smallest = leastWorks;
        int held = 0;
        for (int i = 0; i < n; i++) {
            if (priorities[i] <= ceiling) {
                keepSmallest(smallest, 0, k, Math.min(held, k), work(i, work));
                held++;
            }
        }
        long sum = 0;
        for (int j = 0; j < Math.min(held, k); j++) {
            sum += smallest[j];
        }
        return sum;
    }

    /** Puts {@code value} among the {@code held} smallest kept ascending at {@code from}, keeping at most {@code k}. */
    private static void keepSmallest(long[] kept, int from, int k, int held, long value) {
        if (held == k && value >= kept[from + k - 1]) {
            return;
        }
        int at = from + (held < k ? held : k - 1);
        while (at > from && kept[at - 1] > value) {
            kept[at] = kept[at - 1];
            at--;
        }
        kept[at] = value;
    }

    private int fewestBySorting(int d, long bound, long need) {
        long[] sorted = new long[n];
        for (int i = 0; i < n; i++) {
            sorted[i] = priorities[i] > bound ? 0 : amounts[d * n + i];
        }
        Arrays.sort(sorted);
        long freed = 0;
        int taken = 0;
        for (int i = n - 1; i >= 0 && freed < need; i--) {
            freed += sorted[i];
            taken++;
        }
        return taken;
    }
}
