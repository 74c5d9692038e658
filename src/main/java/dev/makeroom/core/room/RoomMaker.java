package dev.makeroom.core.room;

import dev.makeroom.core.model.PodInfo;

import java.util.List;
import java.util.StringJoiner;

/**
 * Solves a {@link NodeProblem}: the least disruptive set of victims that makes room for the pod on the
 * node, under the {@link Objective}. The tiers are tried in order and the first that makes room wins.
 * The preempt verb asks this of every candidate node; anything else that must free a node (moving
 * pods instead of killing them) asks the same.
 */
public final class RoomMaker {

    private final VictimSelector selector;
    private final boolean exact;
    private final boolean strictPdb;

    public RoomMaker(Strategy strategy, PdbMode pdb) {
        this.exact = strategy != Strategy.KUBE_DEFAULT;
        this.selector = exact ? new MinimalVictimSearch() : new ReprieveSelector();
        this.strictPdb = pdb == PdbMode.STRICT;
    }

    /**
     * The node's verdict. With a {@code cutoff} (may be null) the search only looks for sets that beat
     * it, and a node that cannot is marked dominated; last-resort tiers are searched without one, since
     * they never set it.
     */
    public NodeVerdict find(NodeProblem problem, Deadline deadline, Objective cutoff) {
        return find(problem, deadline, 1, cutoff, WorkPrice.At.NONE);
    }

    /**
     * As above, searching within a {@code parts}-th of what is left before {@code deadline} (one
     * node's share of a decision's budget), cut only when a search runs: most nodes of a
     * preemption are settled before one. {@code work} prices what each victim loses (the work-lost
     * objective; {@link WorkPrice.At#NONE} with the default one).
     */
    public NodeVerdict find(NodeProblem problem, Deadline deadline, int parts, Objective cutoff, WorkPrice.At work) {
        if (problem.obstacle() != null) {
            return NodeVerdict.infeasible(problem.node(), problem.obstacle().reason(), problem.obstacle().detail(),
                    SearchStats.NONE);
        }
        if (problem.fitsAlready()) {
            return NodeVerdict.infeasible(problem.node(), InfeasibleReason.FITS_WITHOUT_PREEMPTION,
                    "the pod fits without evicting anything", SearchStats.NONE);
        }
        NodeVerdict verdict = null;
        Deadline share = null;
        for (int t = 0; t < NodeProblem.TIERS.size(); t++) {
            Tier tier = NodeProblem.TIERS.get(t);
            if (!problem.searches(tier)) {
                continue;
            }
            List<PodInfo> candidates = problem.candidatesUpTo(tier); // once: the quick check and the pool read it
            // one pass over them for the checks below; fewest -1: even all of them free too little
            CandidateScan scan = CandidateScan.of(candidates, problem.columns(), problem.rowsUpTo(tier),
                    problem.deficit(), cutoff == null ? Long.MAX_VALUE : cutoff.highestPriority());
            if (problem.needs().isEmpty() && scan.fewest() < 0) {
                verdict = verdict(problem, Selection.tooLittle(), tier); // as the selectors would say, without a pool
                continue;
            }
            Selection dominated = exact && !tier.lastResort()
                    ? QuickDomination.check(problem, scan, cutoff, strictPdb, work) : null;
            if (dominated != null) {
                return verdict(problem, dominated, tier);
            }
            CandidatePool pool = pool(problem, candidates, work, scan);
            if (share == null) { // one share for all of the node's tiers, cut when the first is searched
                share = parts > 1 ? deadline.slice(parts) : deadline;
            }
            verdict = verdict(problem, selector.select(pool, share, tier.lastResort() ? null : cutoff), tier);
            if (verdict.isFeasible()) {
                return verdict;
            }
        }
        return verdict;
    }

    /** {@code scan} is of {@code pods}, made last: it prices them. */
    private CandidatePool pool(NodeProblem problem, List<PodInfo> pods, WorkPrice.At work, CandidateScan scan) {
        return new CandidatePool(pods, problem.deficit(), problem.needs(), problem.forced(), problem.budgets(),
                strictPdb, problem.rules().floors(pods), work, i -> scan.work(i, work));
    }

    private static NodeVerdict verdict(NodeProblem problem, Selection selection, Tier tier) {
        if (selection.feasible()) {
            NodeVerdict feasible = NodeVerdict.feasible(problem.node(), selection, tier.lastResort());
            return problem.notes().isEmpty() ? feasible : feasible.explained(String.join("; ", problem.notes()));
        }
        String detail = selection.reason() == InfeasibleReason.NOT_ENOUGH_PREEMPTIBLE_RESOURCES
                ? "evicting every preemptible pod " + shortfall(problem) + outOfReachText(problem)
                : selection.detail();
        return NodeVerdict.infeasible(problem.node(), selection.reason(), detail, selection.stats());
    }

    /**
     * What even every preemptible pod gone would not give: resources it frees too little of, and
     * constraints (topology spread) it cannot meet; a constraint is not an amount to free.
     */
    private static String shortfall(NodeProblem problem) {
        List<String> resources = List.copyOf(problem.deficit().toMap().keySet());
        List<String> constraints = problem.needs().stream().map(CountNeed::name).toList();
        String freed = resources.isEmpty() ? "" : "frees too little of " + resources;
        String met = constraints.isEmpty() ? "" : "cannot meet " + String.join(", ", constraints);
        return freed.isEmpty() ? met : met.isEmpty() ? freed : freed + " and " + met;
    }

    /** Why the rest of the node's pods were out of reach, so "too little" can be acted on. */
    private static String outOfReachText(NodeProblem problem) {
        if (problem.outOfReach().isEmpty()) {
            return "";
        }
        StringJoiner text = new StringJoiner(", ", "; not preemptible: ", "");
        problem.outOfReach().forEach((protection, pods) -> text.add(pods + " " + protection.describe()));
        return text.toString();
    }
}
