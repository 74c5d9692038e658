package dev.makeroom.core.room;

import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntToLongFunction;

/**
 * One node's victim problem in dense arrays, shared by the selectors: the deficit to free per
 * resource, what each candidate frees of it, the pods that must go (conflicts), the budgets each
 * candidate spends, the queue guarantees ({@link QueueFloors}) it draws on, and the per-candidate
 * costs the objective adds up ({@link ObjectiveSum}): work lost (all 0 where the pool is not priced) and
 * the tie-breaks.
 */
final class CandidatePool {

    final List<PodInfo> pods;
    final String[] dims;
    final long[] need;
    final long[][] frees;
    final boolean[] forced;
    final int[][] budgetsOf;
    final int[] allowed;
    final List<DisruptionBudget> budgets;
    final boolean strictPdb;
    final QueueFloors floors;
    private final int[] priority;
    private final long[] work;          // each candidate's work lost; all 0 where nothing prices it
    private final WorkRank workRank;
    private final boolean workBeforeCount;
    private final long[] tieBreakCosts; // [candidate * TieBreak.COUNT + ordinal], flat: one allocation per pool

    /** {@code coverage} tells which budgets evicting a pod would spend. */
    CandidatePool(List<PodInfo> pods, Resources deficit, Set<String> forcedUids,
                  Function<PodInfo, List<DisruptionBudget>> coverage, boolean strictPdb) {
        this(pods, deficit, List.of(), forcedUids, coverage, strictPdb, QueueFloors.NONE, WorkPrice.At.NONE);
    }

    /**
     * As above, with counts the victims must reach besides the deficit ({@code needs}, each one more
     * dimension whose candidates free 1 or 0) and the queue floors of {@code pods} (indexed alike);
     * {@code work} prices what each candidate's eviction loses.
     */
    CandidatePool(List<PodInfo> pods, Resources deficit, List<CountNeed> needs, Set<String> forcedUids,
                  Function<PodInfo, List<DisruptionBudget>> coverage, boolean strictPdb, QueueFloors floors,
                  WorkPrice.At work) {
        this(pods, deficit, needs, forcedUids, coverage, strictPdb, floors, work, i -> work.of(pods.get(i)));
    }

    /** As above, candidate i's work lost priced as {@code workOf(i)} says (a scan's columns are quicker to read). */
    CandidatePool(List<PodInfo> pods, Resources deficit, List<CountNeed> needs, Set<String> forcedUids,
                  Function<PodInfo, List<DisruptionBudget>> coverage, boolean strictPdb, QueueFloors floors,
                  WorkPrice.At work, IntToLongFunction workOf) {
        this.pods = List.copyOf(pods);
        this.strictPdb = strictPdb;
        this.floors = floors;
        Map<DisruptionBudget, Integer> index = new IdentityHashMap<>(4); // a node's pods share a few budgets at most
        List<List<DisruptionBudget>> covering = new ArrayList<>(pods.size());
        for (PodInfo pod : pods) {
            List<DisruptionBudget> spent = coverage.apply(pod);
            covering.add(spent);
            spent.forEach(b -> index.putIfAbsent(b, index.size()));
        }
        DisruptionBudget[] ordered = new DisruptionBudget[index.size()];
        index.forEach((b, i) -> ordered[i] = b);
        this.budgets = List.of(ordered);
        int n = pods.size();
        int resources = deficit.size();
        dims = new String[resources + needs.size()];
        need = new long[dims.length];
        for (int d = 0; d < resources; d++) {
            dims[d] = deficit.name(d);
            need[d] = deficit.value(d);
        }
        for (int k = 0; k < needs.size(); k++) {
            dims[resources + k] = needs.get(k).name();
            need[resources + k] = needs.get(k).need();
        }
        frees = new long[n][dims.length];
        forced = new boolean[n];
        budgetsOf = new int[n][];
        allowed = new int[budgets.size()];
        for (int b = 0; b < allowed.length; b++) {
            allowed[b] = this.budgets.get(b).disruptionsAllowed();
        }
        for (int i = 0; i < n; i++) {
            PodInfo pod = pods.get(i);
            for (int d = 0; d < resources; d++) {
                frees[i][d] = pod.frees(dims[d]);
            }
            for (int k = 0; k < needs.size(); k++) {
                frees[i][resources + k] = needs.get(k).counts().test(pod) ? 1 : 0;
            }
            forced[i] = forcedUids.contains(pod.uid());
            List<DisruptionBudget> spent = covering.get(i);
            budgetsOf[i] = new int[spent.size()];
            for (int k = 0; k < spent.size(); k++) {
                budgetsOf[i][k] = index.get(spent.get(k));
            }
        }
        priority = new int[n];
        this.work = new long[n];
        this.workRank = work.rank();
        this.workBeforeCount = work.beforeCount();
        tieBreakCosts = new long[n * TieBreak.COUNT];
        for (int i = 0; i < n; i++) {
            priority[i] = this.pods.get(i).priority();
            this.work[i] = workOf.applyAsLong(i);
            for (int t = 0; t < TieBreak.COUNT; t++) { // indexed: no iterator per candidate
                tieBreakCosts[i * TieBreak.COUNT + t] = TieBreak.ALL.get(t).cost(this.pods.get(i));
            }
        }
    }

    int size() {
        return pods.size();
    }

    int priority(int i) {
        return priority[i];
    }

    /** Candidate {@code i}'s work lost (0 where nothing prices it). */
    long work(int i) {
        return work[i];
    }

    /** Where the objective ranks work lost. */
    WorkRank workRank() {
        return workRank;
    }

    /** Whether work lost comes before the count (the work-lost objective): then the count's own aids are off. */
    boolean workBeforeCount() {
        return workBeforeCount;
    }

    /** Candidate {@code i}'s cost in the {@link TieBreak} of ordinal {@code t}. */
    long tieBreakCost(int i, int t) {
        return tieBreakCosts[i * TieBreak.COUNT + t];
    }

    /** Adds (sign 1) or takes away (sign -1) what candidate {@code i} frees to the running sums {@code freed}. */
    void addFreed(long[] freed, int i, int sign) {
        for (int d = 0; d < freed.length; d++) {
            freed[d] += sign * frees[i][d];
        }
    }

    /** Whether the running sums {@code freed} reach the need in every dimension. */
    boolean covers(long[] freed) {
        for (int d = 0; d < need.length; d++) {
            if (freed[d] < need[d]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The shares of what is still missing (after {@code freed}) that candidate {@code i} frees, each
     * at most 1, times its resource's multiplier in {@code lambda} (1 each when null), summed.
     */
    double shareOfMissing(int i, long[] freed, double[] lambda) {
        double share = 0;
        for (int d = 0; d < need.length; d++) {
            long missing = need[d] - freed[d];
            if (missing > 0) {
                share += (lambda == null ? 1 : lambda[d]) * Math.min(1.0, (double) frees[i][d] / missing);
            }
        }
        return share;
    }

    /**
     * Fills {@code into} with multipliers on the shares of what {@code freed} leaves missing (for
     * {@link #shareOfMissing}): {@code perUnit[d]} times the amount of resource d missing, 0 where
     * nothing is; whether any is positive.
     */
    boolean multipliersFor(double[] perUnit, long[] freed, double[] into) {
        boolean any = false;
        for (int d = 0; d < need.length; d++) {
            long missing = need[d] - freed[d];
            into[d] = missing > 0 ? perUnit[d] * missing : 0;
            any |= into[d] > 0;
        }
        return any;
    }

    /** Whether two candidates spend the same budgets and draw alike on the same queue floors. */
    boolean sameLimits(int a, int b) {
        return java.util.Arrays.equals(budgetsOf[a], budgetsOf[b]) && java.util.Arrays.equals(floors.of(a), floors.of(b))
                && java.util.Arrays.equals(floors.draw(a), floors.draw(b));
    }

    /** Whether evicting exactly the marked pods makes the pending pod fit. */
    boolean fits(boolean[] evicted) {
        for (int i = 0; i < forced.length; i++) {
            if (forced[i] && !evicted[i]) {
                return false;
            }
        }
        for (int d = 0; d < need.length; d++) {
            long freed = 0;
            for (int i = 0; i < evicted.length; i++) {
                if (evicted[i]) {
                    freed += frees[i][d];
                }
            }
            if (freed < need[d]) {
                return false;
            }
        }
        return true;
    }

    /** Per budget, the victims beyond what it allows. */
    long pdbViolations(boolean[] evicted) {
        return ObjectiveSum.over(this, evicted).violations();
    }

    /** The marked victims as a set, most important first, its PDB violations counted as given. */
    VictimSet victimSet(boolean[] evicted, long pdbViolations) {
        List<PodInfo> victims = new ArrayList<>();
        for (int i = 0; i < evicted.length; i++) {
            if (evicted[i]) {
                victims.add(pods.get(i));
            }
        }
        victims.sort(Importance.MOST_IMPORTANT_FIRST);
        return new VictimSet(victims, (int) pdbViolations,
                ObjectiveSum.over(this, evicted).objectiveCounting(pdbViolations));
    }
}
