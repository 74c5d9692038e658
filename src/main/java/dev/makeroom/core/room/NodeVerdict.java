package dev.makeroom.core.room;

/**
 * The outcome for one candidate node: a victim set with its cost, or why the node cannot be used.
 * {@code lastResort} marks a set that takes opted-out pods for a DaemonSet pod that has nowhere
 * else to go; {@code dominated} a node proven unable to beat an earlier one, whose set is then
 * only the best the search had when it knew that (not necessarily this node's own optimum).
 */
public record NodeVerdict(String node, VictimSet victims, InfeasibleReason reason, String detail,
                          boolean provenOptimal, boolean lastResort, boolean dominated, SearchStats stats) {

    static NodeVerdict feasible(String node, Selection selection, boolean lastResort) {
        return new NodeVerdict(node, selection.set(), null, null, selection.provenOptimal(), lastResort,
                selection.dominated(), selection.stats());
    }

    public static NodeVerdict infeasible(String node, InfeasibleReason reason, String detail, SearchStats stats) {
        return new NodeVerdict(node, null, reason, detail, true, false, false, stats);
    }

    /** The same verdict, saying what constraints shaped it. */
    NodeVerdict explained(String why) {
        return new NodeVerdict(node, victims, reason, why, provenOptimal, lastResort, dominated, stats);
    }

    public boolean isFeasible() {
        return victims != null;
    }
}
