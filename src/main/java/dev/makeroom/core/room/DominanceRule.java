package dev.makeroom.core.room;

import java.util.ArrayList;
import java.util.List;

/**
 * Pods that are never needed while a better one is left: a restriction of the search that keeps an
 * optimal set in reach.
 *
 * <p><b>Design.</b> Candidate {@code a} dominates {@code b} when both spend the same budgets and draw
 * the same queue floors, {@code a} frees at least as much of every resource, its priority and its work
 * lost are each no greater than {@code b}'s, and {@code a}'s costs (priority, work lost, then each
 * tie-break) are no greater than {@code b}'s in that order. Then a set holding
 * {@code b} but not {@code a} is no better than the same set with {@code a} in {@code b}'s place: the
 * swap keeps it covering and within its limits, changes no budget's count, and its first changed
 * sum goes down. Swapping repeatedly (pods equal in everything ordered by index, so dominance is a
 * strict order) ends in a set as good that takes no pod while a pod dominating it is left; so the
 * search may skip every set that does. The search takes each class as a prefix of its members (the
 * cheapest first) and visits classes in order; a member's dominators in earlier classes decide how
 * long a prefix may be. Built only for pools large enough to need it (it costs a pass over pairs).
 */
final class DominanceRule {

    /** Pools with fewer searched candidates than this are searched without the rule. */
    static final int WORTH_IT = 32;

    private final int[][] dominators; // [pod]: pods of earlier classes that dominate it

    private DominanceRule(int[][] dominators) {
        this.dominators = dominators;
    }

    /** The rule for the search's classes (visited in this order), or null when the pool is small. */
    static DominanceRule of(CandidatePool pool, int[][] classes) {
        int searched = 0;
        for (int[] members : classes) {
            searched += members.length;
        }
        if (searched < WORTH_IT) {
            return null;
        }
        int[][] dominators = new int[pool.size()][];
        for (int cb = 0; cb < classes.length; cb++) {
            for (int b : classes[cb]) {
                List<Integer> over = new ArrayList<>();
                for (int ca = 0; ca < cb; ca++) {
                    for (int a : classes[ca]) {
                        if (dominates(pool, a, b)) {
                            over.add(a);
                        }
                    }
                }
                dominators[b] = over.stream().mapToInt(Integer::intValue).toArray();
            }
        }
        return new DominanceRule(dominators);
    }

    /** How many of {@code members} (taken as a prefix, at most {@code k}) may be taken with {@code chosen} as it is. */
    int longestPrefix(int[] members, int k, boolean[] chosen) {
        for (int j = 0; j < k; j++) {
            for (int a : dominators[members[j]]) {
                if (!chosen[a]) {
                    return j;
                }
            }
        }
        return k;
    }

    private static boolean dominates(CandidatePool pool, int a, int b) {
        if (!pool.sameLimits(a, b)) {
            return false;
        }
        for (int d = 0; d < pool.need.length; d++) {
            if (pool.frees[a][d] < pool.frees[b][d]) {
                return false;
            }
        }
        if (pool.priority(a) > pool.priority(b) || pool.work(a) > pool.work(b)) {
            return false; // either would let the swap raise a part of the objective before the priority sum
        }
        int c = Integer.compare(pool.priority(a), pool.priority(b));
        if (c == 0) c = Long.compare(pool.work(a), pool.work(b));
        for (int t = 0; c == 0 && t < TieBreak.COUNT; t++) {
            c = Long.compare(pool.tieBreakCost(a, t), pool.tieBreakCost(b, t));
        }
        return c < 0 || (c == 0 && a < b);
    }
}
