package dev.makeroom.core.room;

import dev.makeroom.core.model.DisruptionBudget;

/**
 * A good first set for the exact search, so that its bounds prune from the start: the search's own
 * first sets take the lowest priority first and as many as possible, which on full nodes means
 * many small pods, and the scheduler's reprieve set can be far from the fewest.
 *
 * <p><b>Design.</b> Priority levels are tried lowest first; at each, pods of at most that priority
 * are taken one at a time, each time the one freeing the largest share of what is still missing
 * (shares of each missing resource, each at most 1, weighed by the search's tuned multipliers and
 * summed), never a pod beyond its budget's allowance. The first level that covers the need gives
 * the set; then pods that turn out not to be needed are put back, those beyond a budget's
 * allowance first, then the most costly. If no level covers within the budgets, the same runs once
 * more taking pods beyond their budgets only when no pod within them frees anything still missing
 * (violations come first in the order). The set is only offered: the search keeps it only when it
 * is within the hard limits and better than what it has.
 */
final class GreedyCover {

    private GreedyCover() {
    }

    /**
     * A covering set of the pool's candidates, or null when none is found this way. {@code perUnit}:
     * multipliers per unit of each resource for weighing what a pod frees (the search's tuned
     * surrogate, see {@link SurrogateDirection}); equal shares when null.
     */
    static boolean[] find(CandidatePool pool, double[] perUnit) {
        int[] levels = pool.pods.stream().mapToInt(p -> p.priority()).distinct().sorted().toArray();
        for (int level : levels) {
            boolean[] set = cover(pool, level, true, perUnit);
            if (set != null) {
                return set;
            }
        }
        return levels.length == 0 ? null : cover(pool, levels[levels.length - 1], false, perUnit);
    }

    /**
     * Takes the heaviest pod until the need is covered; with {@code keepBudgets} only pods within
     * their budgets, else those while any frees something missing, then the others (each one more
     * violation).
     */
    private static boolean[] cover(CandidatePool pool, int highest, boolean keepBudgets, double[] perUnit) {
        int n = pool.size();
        boolean[] taken = new boolean[n];
        long[] freed = new long[pool.need.length];
        int[] spent = new int[pool.allowed.length];
        double[] lambda = perUnit == null ? null : new double[perUnit.length];
        for (int i = 0; i < n; i++) {
            if (pool.forced[i]) {
                take(pool, i, taken, freed, spent);
            }
        }
        while (!pool.covers(freed)) {
            if (lambda != null) {
                pool.multipliersFor(perUnit, freed, lambda);
            }
            int best = heaviest(pool, highest, taken, freed, spent, lambda, true);
            if (best < 0 && !keepBudgets) {
                best = heaviest(pool, highest, taken, freed, spent, lambda, false);
            }
            if (best < 0) {
                return null;
            }
            take(pool, best, taken, freed, spent);
        }
        putBackUnneeded(pool, taken, freed, spent);
        return taken;
    }

    /** The untaken pod of at most {@code highest} priority (within its budgets, if asked) that weighs most; -1 if none weighs anything. */
    private static int heaviest(CandidatePool pool, int highest, boolean[] taken, long[] freed, int[] spent,
                                double[] lambda, boolean withinBudgets) {
        int best = -1;
        double bestWeight = 0;
        for (int i = 0; i < taken.length; i++) {
            if (taken[i] || pool.priority(i) > highest || (withinBudgets && exhausts(pool, i, spent))) {
                continue;
            }
            double weight = pool.shareOfMissing(i, freed, lambda);
            if (weight > bestWeight) {
                best = i;
                bestWeight = weight;
            }
        }
        return best;
    }

    /**
     * Puts back every pod the set still covers without: first pods in a budget the set takes beyond
     * its allowance (each one a violation saved), then any, highest priority first (the reprieve's
     * put-back).
     */
    private static void putBackUnneeded(CandidatePool pool, boolean[] taken, long[] freed, int[] spent) {
        Integer[] order = new Integer[taken.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Integer.compare(pool.priority(b), pool.priority(a)));
        for (int i : order) {
            if (taken[i] && beyondAllowance(pool, i, spent) && ReprieveSelector.tryReprieve(pool, taken, freed, i)) {
                for (int b : pool.budgetsOf[i]) {
                    spent[b]--;
                }
            }
        }
        for (int i : order) {
            if (taken[i]) {
                ReprieveSelector.tryReprieve(pool, taken, freed, i);
            }
        }
    }

    private static boolean beyondAllowance(CandidatePool pool, int i, int[] spent) {
        for (int b : pool.budgetsOf[i]) {
            if (DisruptionBudget.violationsAt(spent[b], pool.allowed[b]) > 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean exhausts(CandidatePool pool, int i, int[] spent) {
        for (int b : pool.budgetsOf[i]) {
            if (DisruptionBudget.violatedBy(spent[b], pool.allowed[b])) {
                return true;
            }
        }
        return false;
    }

    private static void take(CandidatePool pool, int i, boolean[] taken, long[] freed, int[] spent) {
        taken[i] = true;
        pool.addFreed(freed, i, 1);
        for (int b : pool.budgetsOf[i]) {
            spent[b]++;
        }
    }
}
