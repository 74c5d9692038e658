package dev.makeroom.core.preemption;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The kube-scheduler's own victim choice (SelectVictimsOnNode), for the {@code kube-default}
 * strategy and as the first incumbent of the exact search: evict every candidate, then add pods
 * back most important first, PDB-violating ones before the others, keeping each one that still
 * lets the pending pod fit. Its PDB count is upstream's: victims whose budget was already spent
 * in that importance order.
 */
final class ReprieveSelector implements VictimSelector {

    /** The evicted pods of the reprieve, or null when even evicting all of them is not enough. */
    record Reprieve(boolean[] evicted, int violatingVictims, int states) {
    }

    @Override
    public Selection select(CandidatePool pool, Deadline deadline, Objective cutoff) {
        long start = deadline.clock().getAsLong();
        Reprieve reprieve = reprieve(pool);
        if (reprieve == null) {
            return Selection.infeasible(InfeasibleReason.NOT_ENOUGH_PREEMPTIBLE_RESOURCES,
                    "evicting every preemptible pod still leaves too little", SearchStats.NONE);
        }
        SearchStats stats = new SearchStats(reprieve.states(), deadline.clock().getAsLong() - start);
        if (pool.strictPdb && pool.pdbViolations(reprieve.evicted()) > 0) {
            return Selection.infeasible(InfeasibleReason.PDB_WOULD_BE_VIOLATED,
                    "the reprieve result violates a PodDisruptionBudget", stats);
        }
        return Selection.of(pool.victimSet(reprieve.evicted(), reprieve.violatingVictims()), false, stats);
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

        int[] allowed = pool.allowed.clone();
        List<Integer> violating = new ArrayList<>();
        List<Integer> nonViolating = new ArrayList<>();
        for (int i : order) {
            boolean violates = false;
            for (int b : pool.budgetsOf[i]) {
                allowed[b]--;
                violates |= allowed[b] < 0;
            }
            (violates ? violating : nonViolating).add(i);
        }
        long[] freed = new long[pool.need.length];
        for (int i = 0; i < n; i++) {
            addFreed(pool, freed, i, 1);
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
        return new Reprieve(evicted, violatingVictims, n);
    }

    /** Puts pod i back if the pending pod still fits without it; O(resources) with the running sums. */
    private static boolean tryReprieve(CandidatePool pool, boolean[] evicted, long[] freed, int i) {
        if (pool.forced[i]) {
            return false;
        }
        addFreed(pool, freed, i, -1);
        for (int d = 0; d < freed.length; d++) {
            if (freed[d] < pool.need[d]) {
                addFreed(pool, freed, i, 1);
                return false;
            }
        }
        evicted[i] = false;
        return true;
    }

    private static void addFreed(CandidatePool pool, long[] freed, int i, int sign) {
        for (int d = 0; d < freed.length; d++) {
            freed[d] += sign * pool.frees[i][d];
        }
    }
}
