package dev.makeroom.core.preemption;

/** What a preemption decision concluded as a whole. */
public enum DecisionOutcome {
    /** Victims chosen on at least one node. */
    PREEMPT,
    /** The pod may preempt but no candidate node works. */
    NO_FEASIBLE_NODE,
    /** The pod may not preempt at all (its policy, or it already waits for victims to go). */
    NOT_ELIGIBLE,
    /** No node works yet, and the pod may take from other queues once its queue's delay has passed. */
    DELAYED_BY_QUEUE,
    /** No one is evicted: a node makeroom keeps empty is put back into service for the pod ({@link HeldRoomRelease}). */
    RELEASE
}
