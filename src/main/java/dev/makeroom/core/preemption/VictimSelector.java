package dev.makeroom.core.preemption;

/** A strategy that picks one node's victims. */
interface VictimSelector {

    Selection select(CandidatePool pool, Deadline deadline);
}
