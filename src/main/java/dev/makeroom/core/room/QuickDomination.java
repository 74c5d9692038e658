package dev.makeroom.core.room;

import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

import java.util.Arrays;
import java.util.List;

/**
 * A node settled as unable to beat the best node so far ({@code cutoff}) without building its pool or
 * searching it: most nodes of a preemption, once a good node is found, cost a scan.
 *
 * <p>Two exact tests, both only without pods that must go, counts to reach, queue floors or strict
 * budgets (each changes what a set may be). Let {@code P} be the lowest priority among the node's
 * candidates and {@code k} the fewest pods that could free the most demanding short resource (its
 * largest amounts first). Every set there has at least 0 PDB violations, a highest priority of at
 * least {@code P} and at least {@code k} victims, so:
 * <ul>
 *   <li><b>by bound</b>: let {@code H} be the cutoff's highest priority, with no violation. A set with
 *       a victim above {@code H} is worse than the cutoff. When the candidates of at most {@code H}
 *       cannot free what is short, every set has one, and the node is dominated. When they are all of
 *       exactly {@code H}, a set that ties the cutoff on its highest priority is made of them only, so
 *       it is, component by component, at least the bound {@code (0, H, k', k'·H, the sum of the k' smallest
 *       works lost, per tie-break the sum of the k' smallest costs)} (work lost before {@code k'} where the
 *       {@link WorkRank} says so), {@code k'} the fewest of them that free the most demanding
 *       short resource: each component only grows as victims are added (tie-break costs are never
 *       negative; the priority sum only when {@code H} is not). A vector at least the bound everywhere
 *       is at least it lexicographically, so when the bound is no better than the cutoff, no set on
 *       the node beats it. The cutoff is usually a set of the same few interchangeable pods, which
 *       the bound equals, so most nodes of a preemption end here;</li>
 *   <li><b>by a single</b>: when a candidate of priority {@code P} alone frees everything and its
 *       budgets allow it, no set beats the best such single (a set equal to it on violations, highest
 *       priority, count and priority sum is itself such a single, and the tie-breaks order those);
 *       when that single is no better than the cutoff, neither is the node; the best single is the one
 *       losing least work, then the one first in the tie-breaks. Not with work lost before the count:
 *       there two pods may lose less work than one.</li>
 * </ul>
 * A dominated node still shows a feasible set (the single, or the lowest-priority-first greedy set),
 * as the search's dominated nodes show the best set they had.
 */
final class QuickDomination {

    private QuickDomination() {
    }

    /**
     * The node's selection when it is dominated by {@code cutoff} as above, else null (search it);
     * {@code scan} is of the node's candidates, made for the cutoff's highest priority; {@code work} prices them.
     */
    static Selection check(NodeProblem problem, CandidateScan scan, Objective cutoff, boolean strictPdb,
                           WorkPrice.At work) {
        if (cutoff == null || strictPdb || !problem.forced().isEmpty() || !problem.needs().isEmpty()
                || problem.rules().active() || scan.size() == 0) {
            return null;
        }
        if (scan.ceiling() != cutoff.highestPriority()) {
            throw new IllegalArgumentException("the scan was made for another cutoff");
        }
        if (scan.fewest() < 0) {
            return null; // everything frees too little: the search says so, with what is short
        }
        if (!boundBeats(scan, cutoff, work)) {
            return Selection.dominated(witness(problem, greedy(scan), work), SearchStats.NONE);
        }
        PodInfo single = scan.fewest() == 1 && !work.beforeCount() ? bestSingle(problem, scan, work) : null;
        if (single == null) {
            return null;
        }
        VictimSet set = witness(problem, new PodInfo[] {single}, work);
        return set.objective().isBetterThan(cutoff) ? null : Selection.dominated(set, SearchStats.NONE);
    }

    /**
     * Whether the bound above may be better than {@code cutoff}, compared as {@link Objective#compareTo}
     * does, each component worked out only when the ones before are tied; true when it cannot tell.
     */
    private static boolean boundBeats(CandidateScan scan, Objective cutoff, WorkPrice.At work) {
        long ceiling = cutoff.highestPriority();
        if (cutoff.pdbViolations() > 0) {
            return true;
        }
        int fewest = scan.fewestUpToCeiling();
        if (fewest < 0) {
            return false; // every set takes a pod above the cutoff's highest priority
        }
        if (scan.lowestPriority() < ceiling) {
            return true; // a set of lower priorities may exist
        }
        int c = work.beforeCount() ? Long.compare(scan.leastWork(fewest, work), cutoff.workLost()) : 0;
        if (c == 0) c = Long.compare(fewest, cutoff.victims());
        if (c == 0 && ceiling < 0) {
            return true; // more victims lower a sum of negative priorities: no bound on it here
        }
        if (c == 0) c = Long.compare(fewest * ceiling, cutoff.prioritySum());
        if (c == 0 && work.counts() && !work.beforeCount()) { // the default objective's first tie-break
            c = Long.compare(scan.leastWork(fewest, work), cutoff.workLost());
        }
        if (c != 0) {
            return c < 0;
        }
        long[] smallest = new long[TieBreak.COUNT * fewest];
        int held = scan.smallestCosts(fewest, smallest);
        for (int t = 0; c == 0 && t < TieBreak.COUNT; t++) {
            long sum = 0;
            for (int j = 0; j < held; j++) {
                sum += smallest[t * fewest + j];
            }
            c = Long.compare(sum, cutoff.tieBreak(TieBreak.ALL.get(t)));
        }
        return c < 0;
    }

    /** The best pod of the lowest priority that alone frees everything and whose budgets allow it, or null. */
    private static PodInfo bestSingle(NodeProblem problem, CandidateScan scan, WorkPrice.At work) {
        int best = -1;
        long bestWork = 0;
        for (int i = 0; i < scan.size(); i++) {
            if (scan.priority(i) == scan.lowestPriority() && freesAlone(scan, i)
                    && withinBudgets(scan.candidate(i), problem)) {
                long lost = scan.work(i, work);
                if (best < 0 || lost < bestWork || lost == bestWork && cheaper(scan, i, best)) {
                    best = i;
                    bestWork = lost;
                }
            }
        }
        return best < 0 ? null : scan.candidate(best);
    }

    /**
     * Lowest priority first, the larger share of what is short first (the earlier candidate on a
     * tie), until everything short is freed. Picked one at a time rather than sorted: the witness of
     * a dominated node, built for hundreds of nodes per decision, usually takes one pod or two.
     */
    private static PodInfo[] greedy(CandidateScan scan) {
        int n = scan.size();
        Resources deficit = scan.deficit();
        long[] freed = new long[deficit.size()];
        PodInfo[] taken = new PodInfo[Math.min(n, 2)]; // usually enough: grown when not
        int size = 0;
        while (size < n && !covers(freed, deficit)) {
            int next = -1;
            for (int i = 0; i < n; i++) {
                if (!taken(taken, size, scan.candidate(i)) && (next < 0 || before(scan, i, next))) {
                    next = i;
                }
            }
            if (size == taken.length) {
                taken = Arrays.copyOf(taken, 2 * size);
            }
            taken[size++] = scan.candidate(next);
            for (int d = 0; d < freed.length; d++) {
                freed[d] += scan.amount(d, next);
            }
        }
        return size == taken.length ? taken : Arrays.copyOf(taken, size);
    }

    /** Whether {@code pod} is among the first {@code size} of {@code taken} (by identity: a pod or two, so no marks per candidate). */
    private static boolean taken(PodInfo[] taken, int size, PodInfo pod) {
        for (int j = 0; j < size; j++) {
            if (taken[j] == pod) {
                return true;
            }
        }
        return false;
    }

    /** The witness's order: lowest priority first, then the larger share of what is short. */
    private static boolean before(CandidateScan scan, int a, int b) {
        int pa = scan.priority(a);
        int pb = scan.priority(b);
        return pa != pb ? pa < pb : scan.share(a) > scan.share(b);
    }

    private static boolean covers(long[] freed, Resources deficit) {
        for (int d = 0; d < freed.length; d++) {
            if (freed[d] < deficit.value(d)) {
                return false;
            }
        }
        return true;
    }

    /** The set of exactly {@code pods} with its objective ({@link ObjectiveSum#ofPods}, without a pool). */
    private static VictimSet witness(NodeProblem problem, PodInfo[] pods, WorkPrice.At work) {
        Objective objective = ObjectiveSum.ofPods(pods, problem.budgets(), work);
        return new VictimSet(mostImportantFirst(pods), (int) objective.pdbViolations(), objective);
    }

    /** The pods as an unmodifiable list, most important first ({@code pods} is sorted in place). */
    private static List<PodInfo> mostImportantFirst(PodInfo[] pods) {
        if (pods.length == 2 && Importance.MOST_IMPORTANT_FIRST.compare(pods[0], pods[1]) > 0) {
            return List.of(pods[1], pods[0]);
        }
        if (pods.length > 2) {
            Arrays.sort(pods, Importance.MOST_IMPORTANT_FIRST);
        }
        return List.of(pods);
    }

    private static boolean freesAlone(CandidateScan scan, int i) {
        for (int d = 0; d < scan.deficit().size(); d++) {
            if (scan.amount(d, i) < scan.deficit().value(d)) {
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

    /** Whether candidate {@code a} is lexicographically smaller than {@code b} in the tie-breaks. */
    private static boolean cheaper(CandidateScan scan, int a, int b) {
        for (TieBreak t : TieBreak.ALL) {
            int c = Long.compare(scan.cost(t, a), scan.cost(t, b));
            if (c != 0) {
                return c < 0;
            }
        }
        return false;
    }
}
