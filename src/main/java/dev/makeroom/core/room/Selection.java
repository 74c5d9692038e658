package dev.makeroom.core.room;

/** A selector's answer for one node: a victim set, or why there is none. */
record Selection(VictimSet set, InfeasibleReason reason, String detail, boolean provenOptimal, boolean dominated,
                 SearchStats stats) {

    static Selection of(VictimSet set, boolean provenOptimal, SearchStats stats) {
        return new Selection(set, null, null, provenOptimal, false, stats);
    }

    /** A feasible node proven unable to beat the best node so far; {@code set} is the best it has. */
    static Selection dominated(VictimSet set, SearchStats stats) {
        return new Selection(set, null, null, true, true, stats);
    }

    /** Even evicting every candidate frees too little; what was short is said by whoever knows the node. */
    static Selection tooLittle() {
        return new Selection(null, InfeasibleReason.NOT_ENOUGH_PREEMPTIBLE_RESOURCES, null, true, false, SearchStats.NONE);
    }

    static Selection infeasible(InfeasibleReason reason, String detail, SearchStats stats) {
        return new Selection(null, reason, detail, true, false, stats);
    }

    boolean feasible() {
        return set != null;
    }
}
