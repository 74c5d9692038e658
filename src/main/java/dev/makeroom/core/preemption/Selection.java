package dev.makeroom.core.preemption;

/** A selector's answer for one node: a victim set, or why there is none. */
record Selection(VictimSet set, InfeasibleReason reason, String detail, boolean provenOptimal, SearchStats stats) {

    static Selection of(VictimSet set, boolean provenOptimal, SearchStats stats) {
        return new Selection(set, null, null, provenOptimal, stats);
    }

    static Selection infeasible(InfeasibleReason reason, String detail, SearchStats stats) {
        return new Selection(null, reason, detail, true, stats);
    }

    boolean feasible() {
        return set != null;
    }
}
