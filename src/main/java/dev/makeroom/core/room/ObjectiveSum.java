package dev.makeroom.core.room;

import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.PodInfo;

import java.util.List;
import java.util.function.Function;

/**
 * The {@link Objective} of a set being built from a {@link CandidatePool}, kept as running sums: the
 * one place the objective is added up, for the search (victims taken and put back, last in first
 * out), its lower bounds, and plain sets. PDB violations count, per budget, the victims beyond what it
 * allows ({@link dev.makeroom.core.model.DisruptionBudget#violatedBy}, one victim at a time).
 */
final class ObjectiveSum {

    private final CandidatePool pool;
    private final int[] spent;            // per budget of the pool, victims that draw on it
    private final long[] highestBefore;   // the highest priority before each add, to undo it; null: no undo
    private int depth;
    private long violations;
    private long highest = Long.MIN_VALUE;
    private long work;
    private long count;
    private long prioritySum;
    private final long[] tieBreaks = new long[TieBreak.COUNT];

    /** Empty sums that victims are added to and removed from. */
    ObjectiveSum(CandidatePool pool) {
        this(pool, true);
    }

    private ObjectiveSum(CandidatePool pool, boolean undoable) {
        this.pool = pool;
        this.spent = new int[pool.allowed.length];
        this.highestBefore = undoable ? new long[pool.size() + 1] : null;
    }

    /** The sums over exactly the marked victims. */
    static ObjectiveSum over(CandidatePool pool, boolean[] evicted) {
        ObjectiveSum sum = new ObjectiveSum(pool, false);
        for (int i = 0; i < evicted.length; i++) {
            if (evicted[i]) {
                sum.add(i);
            }
        }
        return sum;
    }

    void add(int i) {
        for (int b : pool.budgetsOf[i]) {
            if (DisruptionBudget.violatedBy(spent[b]++, pool.allowed[b])) {
                violations++;
            }
        }
        if (highestBefore != null) {
            highestBefore[depth++] = highest;
        }
        highest = Math.max(highest, pool.priority(i));
        work += pool.work(i);
        count++;
        prioritySum += pool.priority(i);
        for (int t = 0; t < tieBreaks.length; t++) {
            tieBreaks[t] += pool.tieBreakCost(i, t);
        }
    }

    /** Undoes the last {@link #add} not yet undone, which must have been of {@code i}. */
    void remove(int i) {
        for (int b : pool.budgetsOf[i]) {
            if (DisruptionBudget.violatedBy(--spent[b], pool.allowed[b])) {
                violations--;
            }
        }
        highest = highestBefore[--depth];
        work -= pool.work(i);
        count--;
        prioritySum -= pool.priority(i);
        for (int t = 0; t < tieBreaks.length; t++) {
            tieBreaks[t] -= pool.tieBreakCost(i, t);
        }
    }

    long violations() {
        return violations;
    }

    /** The highest priority taken so far ({@code Long.MIN_VALUE} while none is). */
    long highest() {
        return highest;
    }

    long count() {
        return count;
    }

    /** The work lost so far (0 unless the pool counts work). */
    long work() {
        return work;
    }

    long prioritySum() {
        return prioritySum;
    }

    /** How many victims so far draw on budget {@code b} of the pool. */
    int spent(int b) {
        return spent[b];
    }

    Objective objective() {
        return objectiveCounting(violations);
    }

    /** The objective with PDB violations counted as given (the kube-default strategy counts as upstream does). */
    Objective objectiveCounting(long pdbViolations) {
        return new Objective(pdbViolations, highest, work, count, prioritySum, tieBreaks, pool.workRank());
    }

    /**
     * Whether the current set plus {@code extra} more victims, each of priority at least {@code next},
     * work lost at least {@code leastWork} and tie-break costs at least {@code least}, could beat
     * {@code bound}: a lower bound of every completion, compared without building it. The per-victim
     * parts only bind at equal victim counts, which is exactly where a lexicographic comparison reads them.
     */
    boolean mayBeat(Objective bound, int extra, long next, long leastWork, long[] least) {
        if (bound == null) {
            return true;
        }
        int c = compareBeforeTieBreaks(bound, 0, extra, next, extra * next, extra * leastWork);
        for (int t = 0; c == 0 && t < tieBreaks.length; t++) {
            c = Long.compare(tieBreaks[t] + (extra == 0 ? 0 : extra * least[t]), bound.tieBreak(TieBreak.ALL.get(t)));
        }
        return c < 0;
    }

    /**
     * As above with the completion's parts given: at least {@code moreViolations} further PDB
     * violations, its highest priority at least {@code highestAtLeast}, its {@code extra} victims
     * adding at least {@code morePriority}, {@code moreWork} and {@code moreTieBreaks} (the search asks
     * this only where work lost is ranked after the count).
     */
    boolean mayBeat(Objective bound, int moreViolations, int extra, long highestAtLeast, long morePriority,
                    long moreWork, long[] moreTieBreaks) {
        if (bound == null) {
            return true;
        }
        int c = compareBeforeTieBreaks(bound, moreViolations, extra, highestAtLeast, morePriority, moreWork);
        for (int t = 0; c == 0 && t < tieBreaks.length; t++) {
            c = Long.compare(tieBreaks[t] + moreTieBreaks[t], bound.tieBreak(TieBreak.ALL.get(t)));
        }
        return c < 0;
    }

    /** The sums so far plus the completion's parts against {@code bound}, up to the tie-breaks. */
    private int compareBeforeTieBreaks(Objective bound, int moreViolations, int extra, long highestAtLeast,
                                       long morePriority, long moreWork) {
        return Objective.compareBeforeTieBreaks(violations + moreViolations,
                extra == 0 ? highestOrEmpty() : Math.max(highest, highestAtLeast), work + moreWork, count + extra,
                prioritySum + morePriority, bound);
    }

    /** Whether {@code extra} more victims adding {@code morePriority} would tie {@code bound} on count and priority sum. */
    boolean tiesOnCountAndPrioritySum(Objective bound, int extra, long morePriority) {
        return count + extra == bound.victims() && prioritySum + morePriority == bound.prioritySum();
    }

    private long highestOrEmpty() {
        return count == 0 ? Long.MIN_VALUE : highest;
    }

    /**
     * The objective of exactly {@code pods}, added up as {@link #add} adds it (a violation for each victim
     * beyond what a budget allows, counted in order), without a pool: for a pod or two, built for most
     * candidate nodes of a preemption ({@code QuickDomination}'s witnesses); {@code price} their work lost.
     */
    static Objective ofPods(PodInfo[] pods, Function<PodInfo, List<DisruptionBudget>> budgetsOf, WorkPrice.At price) {
        int k = pods.length;
        @SuppressWarnings("unchecked")
        List<DisruptionBudget>[] covering = new List[k];
        long violations = 0;
        long highest = Long.MIN_VALUE;
        long work = 0;
        long prioritySum = 0;
        long[] tieBreaks = new long[TieBreak.COUNT];
        for (int i = 0; i < k; i++) {
            PodInfo pod = pods[i];
            covering[i] = budgetsOf.apply(pod);
            for (DisruptionBudget budget : covering[i]) {
                int spentBefore = 0;
                for (int j = 0; j < i; j++) {
                    spentBefore += covering[j].contains(budget) ? 1 : 0;
                }
                violations += budget.violatedBy(spentBefore) ? 1 : 0;
            }
            highest = Math.max(highest, pod.priority());
            work += price.of(pod);
            prioritySum += pod.priority();
            for (int t = 0; t < TieBreak.COUNT; t++) {
                tieBreaks[t] += TieBreak.ALL.get(t).cost(pod);
            }
        }
        return Objective.owning(violations, highest, work, k, prioritySum, tieBreaks, price.rank());
    }
}
