package dev.makeroom.core.preemption;

/** Which feasible nodes go back to the scheduler. */
public enum AnswerMode {
    /** Only makeroom's preferred node. */
    BEST,
    /** Every feasible node, best first. */
    ALL
}
