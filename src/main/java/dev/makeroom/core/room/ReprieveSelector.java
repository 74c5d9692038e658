package dev.makeroom.core.room;

import dev.makeroom.core.model.DisruptionBudget;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The kube-scheduler's own victim choice (SelectVictimsOnNode), for the {@code kube-default}
 * strategy and as the first incumbent of the exact search: evict every candidate, then add pods
 * back most important first, PDB-violating ones before the others, keeping each one that still
 * lets the pending pod fit. Its PDB count is upstream's: victims whose budget was already spent
 * in that importance order. With queue guarantees (law 2) a first pass, in the same order, puts back
 * every pod whose queue would otherwise go below its guarantee; when the pod no longer fits after
 * that, the reprieve has no answer within the floors.
 */
final class ReprieveSelector implements VictimSelector {

    /**
     * The evicted pods of the reprieve ({@link #reprieve} is null when even evicting all of them is
     * not enough); {@code withinFloors} false when no reprieve keeps every queue's guarantee.
     */
    record Reprieve(boolean[] evicted, int violatingVictims, int states, boolean withinFloors) {
    }

    @Override
    public Selection select(CandidatePool pool, Deadline deadline, Objective cutoff) {
        long start = deadline.clock().getAsLong();
        Reprieve reprieve = reprieve(pool);
        if (reprieve == null) {
            return Selection.tooLittle();
        }
        SearchStats stats = new SearchStats(reprieve.states(), deadline.clock().getAsLong() - start);
        if (!reprieve.withinFloors()) {
            return noSetWithinLimits(pool, false, stats);
        }
        if (pool.strictPdb && pool.pdbViolations(reprieve.evicted()) > 0) {
            return Selection.infeasible(InfeasibleReason.PDB_WOULD_BE_VIOLATED,
                    "the reprieve result violates a PodDisruptionBudget", stats);
        }
        return Selection.of(pool.victimSet(reprieve.evicted(), reprieve.violatingVictims()), false, stats);
    }

    /** Why no set works once the hard limits (queue floors, strict budgets) are applied. */
    static Selection noSetWithinLimits(CandidatePool pool, boolean outOfTime, SearchStats stats) {
        boolean floors = pool.floors.size() > 0;
        InfeasibleReason reason = floors ? InfeasibleReason.QUEUE_GUARANTEE_WOULD_BE_BROKEN
                : InfeasibleReason.PDB_WOULD_BE_VIOLATED;
        String limits = floors && pool.strictPdb ? "keeps every queue's guarantee and spares every PodDisruptionBudget"
                : floors ? "keeps every queue at or above its guarantee" : "spares every PodDisruptionBudget";
        return Selection.infeasible(reason, outOfTime
                ? "no set that " + limits + " was found within the time budget"
                : "no set that makes room " + limits, stats);
    }

    static Reprieve reprieve(CandidatePool pool) {
        int n = pool.size();
        boolean[] evicted = new boolean[n];
        Arrays.fill(evicted, true);
        if (!pool.fits(evicted)) {
            return null;
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            order.add(i);
        }
        order.sort(Comparator.comparing(pool.pods::get, Importance.MOST_IMPORTANT_FIRST));
        if (!keepFloors(pool, evicted, order)) {
            return new Reprieve(evicted, 0, n, false);
        }

        int[] spent = new int[pool.allowed.length];
        List<Integer> violating = new ArrayList<>();
        List<Integer> nonViolating = new ArrayList<>();
        for (int i : order) {
            if (!evicted[i]) {
                continue;
            }
            boolean violates = false;
            for (int b : pool.budgetsOf[i]) {
                violates |= DisruptionBudget.violatedBy(spent[b]++, pool.allowed[b]);
            }
            (violates ? violating : nonViolating).add(i);
        }
        long[] freed = new long[pool.need.length];
        for (int i = 0; i < n; i++) {
            if (evicted[i]) {
                pool.addFreed(freed, i, 1);
            }
        }
        int violatingVictims = 0;
        for (int i : violating) {
            if (!tryReprieve(pool, evicted, freed, i)) {
                violatingVictims++;
            }
        }
        for (int i : nonViolating) {
            tryReprieve(pool, evicted, freed, i);
        }
        return new Reprieve(evicted, violatingVictims, n, true);
    }

    /**
     * Puts back, most important first, each pod that draws on a queue floor the current set
     * breaks; true when the floors then hold and the pending pod still fits.
     */
    private static boolean keepFloors(CandidatePool pool, boolean[] evicted, List<Integer> order) {
        if (pool.floors.size() == 0) {
            return true;
        }
        FloorLedger ledger = FloorLedger.over(pool.floors, evicted);
        for (int i : order) {
            if (!pool.forced[i] && ledger.drawsOnBroken(i)) {
                evicted[i] = false;
                ledger.undraw(i);
            }
        }
        return ledger.holds() && pool.fits(evicted);
    }

    /** Puts pod i back if the pending pod still fits without it; O(resources) with the running sums. */
    static boolean tryReprieve(CandidatePool pool, boolean[] evicted, long[] freed, int i) {
        if (pool.forced[i]) {
            return false;
        }
        pool.addFreed(freed, i, -1);
        if (!pool.covers(freed)) {
            pool.addFreed(freed, i, 1);
            return false;
        }
        evicted[i] = false;
        return true;
    }
}
