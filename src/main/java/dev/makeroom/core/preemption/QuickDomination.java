package dev.makeroom.core.preemption;

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
 *       it is, component by component, at least the bound {@code (0, H, k', k'·H, per tie-break the
 *       sum of the k' smallest costs)}, {@code k'} the fewest of them that free the most demanding
 *       short resource: each component only grows as victims are added (tie-break costs are never
 *       negative; the priority sum only when {@code H} is not). A vector at least the bound everywhere
 *       is at least it lexicographically, so when the bound is no better than the cutoff, no set on
 *       the node beats it. The cutoff is usually a set of the same few interchangeable pods, which
 *       the bound equals, so most nodes of a preemption end here;</li>
 *   <li><b>by a single</b>: when a candidate of priority {@code P} alone frees everything and its
 *       budgets allow it, no set beats the best such single (a set equal to it on violations, highest
 *       priority, count and priority sum is itself such a single, and the tie-breaks order those);
 *       when that single is no better than the cutoff, neither is the node.</li>
 * </ul>
 * A dominated node still shows a feasible set (the single, or the lowest-priority-first greedy set),
 * as the search's dominated nodes show the best set they had.
 */
final class QuickDomination {

    /** Picks of the largest amount, one scan each, before {@link #fewestToFree} sorts instead. */
    private static final int PICKED_ONE_AT_A_TIME = 4;

    private QuickDomination() {
    }

    /**
     * The node's selection when it is dominated by {@code cutoff} as above, else null (search it);
     * {@code fewest} is {@link #fewestToFree} of the candidates.
     */
    static Selection check(NodeProblem problem, List<PodInfo> candidates, int fewest, Objective cutoff,
                           boolean strictPdb) {
        if (cutoff == null || strictPdb || !problem.forced().isEmpty() || !problem.needs().isEmpty()
                || problem.rules().active() || candidates.isEmpty()) {
            return null;
        }
        Resources deficit = problem.deficit();
        int lowest = Integer.MAX_VALUE;
        for (int i = 0; i < candidates.size(); i++) { // indexed, here and below: no iterator per node
            lowest = Math.min(lowest, candidates.get(i).priority());
        }
        if (fewest < 0) {
            return null; // everything frees too little: the search says so, with what is short
        }
        if (!boundBeats(candidates, lowest, deficit, cutoff)) {
            return Selection.dominated(witness(problem, greedy(candidates, deficit)), SearchStats.NONE);
        }
        PodInfo single = fewest == 1 ? bestSingle(problem, candidates, lowest) : null;
        if (single == null) {
            return null;
        }
        VictimSet set = witness(problem, new PodInfo[] {single});
        return set.objective().isBetterThan(cutoff) ? null : Selection.dominated(set, SearchStats.NONE);
    }

    /**
     * The fewest of {@code candidates} that could free the most demanding short resource, largest
     * first; -1 if even all of them free too little (what the selectors conclude first, known here
     * without building a pool).
     */
    static int fewestToFree(List<PodInfo> candidates, Resources deficit) {
        return fewestToFree(candidates, deficit, Long.MAX_VALUE);
    }

    /**
     * Whether the bound above may be better than {@code cutoff}, compared as {@link Objective#compareTo}
     * does, each component worked out only when the ones before are tied; true when it cannot tell.
     */
    private static boolean boundBeats(List<PodInfo> candidates, int lowest, Resources deficit, Objective cutoff) {
        long ceiling = cutoff.highestPriority();
        if (cutoff.pdbViolations() > 0) {
            return true;
        }
        int fewest = fewestToFree(candidates, deficit, ceiling);
        if (fewest < 0) {
            return false; // every set takes a pod above the cutoff's highest priority
        }
        if (lowest < ceiling) {
            return true; // a set of lower priorities may exist
        }
        int c = Long.compare(fewest, cutoff.victims());
        if (c == 0 && ceiling < 0) {
            return true; // more victims lower a sum of negative priorities: no bound on it here
        }
        if (c == 0) c = Long.compare(fewest * ceiling, cutoff.prioritySum());
        if (c != 0) {
            return c < 0;
        }
        long[] smallest = new long[TieBreak.COUNT * fewest];
        int held = smallestCosts(candidates, fewest, ceiling, smallest);
        for (int t = 0; c == 0 && t < TieBreak.COUNT; t++) {
            long sum = 0;
            for (int j = 0; j < held; j++) {
                sum += smallest[t * fewest + j];
            }
            c = Long.compare(sum, cutoff.tieBreak(TieBreak.ALL.get(t)));
        }
        return c < 0;
    }

    /**
     * Keeps in {@code smallest}, per tie-break {@code t} from {@code t * k}, the {@code k} smallest
     * costs among the candidates of priority at most {@code ceiling}, ascending; how many it holds.
     * All tie-breaks in one pass over the candidates: they are wanted when the bound ties the cutoff
     * up to them, which is when they usually tie too.
     */
    private static int smallestCosts(List<PodInfo> candidates, int k, long ceiling, long[] smallest) {
        int held = 0;
        for (int i = 0; i < candidates.size(); i++) {
            PodInfo pod = candidates.get(i);
            if (pod.priority() > ceiling) {
                continue;
            }
            for (int t = 0; t < TieBreak.COUNT; t++) {
                keepSmallest(smallest, t * k, k, Math.min(held, k), TieBreak.ALL.get(t).cost(pod));
            }
            held++;
        }
        return Math.min(held, k);
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

    /**
     * The fewest pods of priority at most {@code ceiling} that could free the most demanding short
     * resource, largest first; -1 if all of them cannot. The largest are picked one at a time (the
     * next after the last in the order larger first, then earlier), not sorted into a copy: it runs
     * for every candidate node, and the answer is usually a pod or two. Past {@link #PICKED_ONE_AT_A_TIME}
     * picks (many small pods) the amounts are sorted instead, so a node costs n log n, not n².
     */
    private static int fewestToFree(List<PodInfo> candidates, Resources deficit, long ceiling) {
        int fewest = 0;
        for (int d = 0; d < deficit.size(); d++) {
            String name = deficit.name(d);
            long freed = 0;
            int taken = 0;
            long lastAmount = Long.MAX_VALUE;
            int last = -1;
            while (freed < deficit.value(d)) {
                if (taken == PICKED_ONE_AT_A_TIME) {
                    taken = fewestBySorting(candidates, name, deficit.value(d), ceiling);
                    if (taken < 0) {
                        return -1;
                    }
                    break;
                }
                int next = -1;
                long nextAmount = 0;
                for (int i = 0; i < candidates.size(); i++) {
                    PodInfo pod = candidates.get(i);
                    long amount = pod.priority() > ceiling ? 0 : pod.frees(name);
                    boolean after = amount < lastAmount || (amount == lastAmount && i > last);
                    if (after && (next < 0 || amount > nextAmount)) {
                        next = i;
                        nextAmount = amount;
                    }
                }
                if (next < 0 || nextAmount <= 0) {
                    return -1;
                }
                freed += nextAmount;
                taken++;
                lastAmount = nextAmount;
                last = next;
            }
            fewest = Math.max(fewest, taken);
        }
        return fewest;
    }

    /** The same count for one resource, from all the amounts sorted: for nodes where it takes many pods. */
    private static int fewestBySorting(List<PodInfo> candidates, String name, long need, long ceiling) {
        long[] amounts = new long[candidates.size()];
        for (int i = 0; i < amounts.length; i++) {
            PodInfo pod = candidates.get(i);
            amounts[i] = pod.priority() > ceiling ? 0 : pod.frees(name);
        }
        Arrays.sort(amounts);
        long freed = 0;
        int taken = 0;
        for (int i = amounts.length - 1; i >= 0 && freed < need; i--) {
            freed += amounts[i];
            taken++;
        }
        return freed < need ? -1 : taken;
    }

    /** The best pod of priority {@code lowest} that alone frees everything and whose budgets allow it, or null. */
    private static PodInfo bestSingle(NodeProblem problem, List<PodInfo> candidates, int lowest) {
        PodInfo best = null;
        for (int i = 0; i < candidates.size(); i++) {
            PodInfo pod = candidates.get(i);
            if (pod.priority() == lowest && freesAlone(pod, problem.deficit()) && withinBudgets(pod, problem)
                    && (best == null || cheaper(pod, best))) {
                best = pod;
            }
        }
        return best;
    }

    /**
     * Lowest priority first, the larger share of what is short first (the earlier candidate on a
     * tie), until everything short is freed. Picked one at a time rather than sorted: the witness of
     * a dominated node, built for hundreds of nodes per decision, usually takes one pod or two.
     */
    private static PodInfo[] greedy(List<PodInfo> candidates, Resources deficit) {
        int n = candidates.size();
        long[] freed = new long[deficit.size()];
        PodInfo[] taken = new PodInfo[Math.min(n, 2)]; // usually enough: grown when not
        int size = 0;
        while (size < n && !covers(freed, deficit)) {
            int next = -1;
            double nextShare = 0;
            for (int i = 0; i < n; i++) {
                PodInfo pod = candidates.get(i);
                if (taken(taken, size, pod)) {
                    continue;
                }
                double share = share(pod, deficit); // worked out again: cheaper than an array per node
                if (next < 0 || before(pod, share, candidates.get(next), nextShare)) {
                    next = i;
                    nextShare = share;
                }
            }
            PodInfo pod = candidates.get(next);
            if (size == taken.length) {
                taken = Arrays.copyOf(taken, 2 * size);
            }
            taken[size++] = pod;
            for (int d = 0; d < freed.length; d++) {
                freed[d] += pod.frees(deficit.name(d));
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
    private static boolean before(PodInfo a, double shareOfA, PodInfo b, double shareOfB) {
        return a.priority() != b.priority() ? a.priority() < b.priority() : shareOfA > shareOfB;
    }

    private static boolean covers(long[] freed, Resources deficit) {
        for (int d = 0; d < freed.length; d++) {
            if (freed[d] < deficit.value(d)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The set of exactly {@code pods} with its objective, added up as {@link ObjectiveSum} adds it (a
     * violation for each victim beyond what a budget allows), without a pool: built for most
     * candidate nodes of a preemption, for a pod or two.
     */
    private static VictimSet witness(NodeProblem problem, PodInfo[] pods) {
        int k = pods.length;
        @SuppressWarnings("unchecked")
        List<DisruptionBudget>[] covering = new List[k];
        long violations = 0;
        long highest = Long.MIN_VALUE;
        long prioritySum = 0;
        long[] tieBreaks = new long[TieBreak.COUNT];
        for (int i = 0; i < k; i++) {
            PodInfo pod = pods[i];
            covering[i] = problem.budgets().apply(pod);
            for (int b = 0; b < covering[i].size(); b++) {
                DisruptionBudget budget = covering[i].get(b);
                int spentBefore = 0;
                for (int j = 0; j < i; j++) {
                    spentBefore += covering[j].contains(budget) ? 1 : 0;
                }
                violations += spentBefore >= budget.disruptionsAllowed() ? 1 : 0;
            }
            highest = Math.max(highest, pod.priority());
            prioritySum += pod.priority();
            for (int t = 0; t < TieBreak.COUNT; t++) {
                tieBreaks[t] += TieBreak.ALL.get(t).cost(pod);
            }
        }
        return new VictimSet(mostImportantFirst(pods), (int) violations, Objective.owning(violations, highest, k, prioritySum, tieBreaks));
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

    private static boolean freesAlone(PodInfo pod, Resources deficit) {
        for (int d = 0; d < deficit.size(); d++) {
            if (pod.frees(deficit.name(d)) < deficit.value(d)) {
                return false;
            }
        }
        return true;
    }

    /** How much of what is short the pod frees, as a sum of shares (to take the most useful first). */
    private static double share(PodInfo pod, Resources deficit) {
        double share = 0;
        for (int d = 0; d < deficit.size(); d++) {
            share += Math.min(1.0, (double) pod.frees(deficit.name(d)) / deficit.value(d));
        }
        return share;
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
