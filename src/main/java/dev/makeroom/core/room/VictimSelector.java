package dev.makeroom.core.room;

/** A strategy that picks one node's victims. */
interface VictimSelector {

    /**
     * The node's best set; with a {@code cutoff} (may be null) a selector may stop early and mark
     * the node dominated once it knows no set here beats the cutoff.
     */
    Selection select(CandidatePool pool, Deadline deadline, Objective cutoff);
}
