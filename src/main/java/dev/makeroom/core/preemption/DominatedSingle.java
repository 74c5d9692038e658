package dev.makeroom.core.preemption;

import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

import java.util.List;

/**
 * A node settled without a search when the best set on it is plainly one pod and cannot beat the best
 * node so far: most nodes of a cluster, when one victim is enough, cost a scan instead of a search.
 *
 * <p>Why it is exact: let {@code P} be the lowest priority among the node's candidates. If a candidate
 * of priority {@code P} alone frees the whole deficit and its budgets allow its eviction, no set on
 * the node beats the best such single pod: every set has at least 0 PDB violations, a highest
 * priority of at least {@code P}, at least one victim and a priority sum of at least {@code P}; and
 * a set that equals the single on all four is itself a single of priority {@code P}, so the
 * tie-breaks order them. When that best single is no better than the cutoff, neither is the node.
 * Only without pods that must go, counts to reach or queue floors (each could make a single too little).
 */
final class DominatedSingle {

    private DominatedSingle() {
    }

    /** The node's selection when it is dominated by {@code cutoff} as above, else null (search it). */
    static Selection check(NodeProblem problem, List<PodInfo> candidates, Objective cutoff, boolean strictPdb) {
        if (cutoff == null || !problem.forced().isEmpty() || !problem.needs().isEmpty() || problem.rules().active()
                || candidates.isEmpty()) {
            return null;
        }
        int lowest = Integer.MAX_VALUE;
        for (PodInfo pod : candidates) {
            lowest = Math.min(lowest, pod.priority());
        }
        PodInfo best = null;
        for (PodInfo pod : candidates) {
            if (pod.priority() == lowest && frees(pod, problem.deficit()) && withinBudgets(pod, problem)
                    && (best == null || cheaper(pod, best))) {
                best = pod;
            }
        }
        if (best == null) {
            return null;
        }
        CandidatePool single = new CandidatePool(List.of(best), problem.deficit(), problem.forced(), problem.budgets(),
                strictPdb);
        VictimSet set = single.victimSet(new boolean[] {true}, 0);
        return set.objective().isBetterThan(cutoff) ? null : Selection.dominated(set, SearchStats.NONE);
    }

    private static boolean frees(PodInfo pod, Resources deficit) {
        for (int d = 0; d < deficit.size(); d++) {
            long freed = Resources.PODS.equals(deficit.name(d)) ? 1 : pod.requests().get(deficit.name(d));
            if (freed < deficit.value(d)) {
                return false;
            }
        }
        return true;
    }

    private static boolean withinBudgets(PodInfo pod, NodeProblem problem) {
        for (DisruptionBudget budget : problem.budgets().apply(pod)) {
            if (budget.disruptionsAllowed() < 1) {
                return false;
            }
        }
        return true;
    }

    /** Lexicographically smaller in the tie-breaks. */
    private static boolean cheaper(PodInfo a, PodInfo b) {
        for (TieBreak t : TieBreak.ALL) {
            int c = Long.compare(t.cost(a), t.cost(b));
            if (c != 0) {
                return c < 0;
            }
        }
        return false;
    }
}
