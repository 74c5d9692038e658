package dev.makeroom.core.reschedule;

import dev.makeroom.core.model.PodRef;

/**
 * A pod a policy wanted to move and did not, and why: {@code category} is a {@link MoveBlocker} name,
 * {@code LIMIT}, {@code BUDGET}, {@code BACKOFF} or {@code NO_LANDING} (for counting), {@code reason} says it in words. For
 * defragmentation, the pending pod that got no room ({@code node} null), with a category of its own.
 */
public record Skip(PodRef pod, String node, ReschedulePolicy policy, String category, String reason) {

    public static final String LIMIT = "LIMIT";
    public static final String NO_LANDING = "NO_LANDING";
    /** A PodDisruptionBudget covering the pod allows no more disruptions now (counting the round's moves). */
    public static final String BUDGET = "BUDGET";
    /** The Eviction API refused the pod lately and its backoff has not run out. */
    public static final String BACKOFF = "BACKOFF";
    /** A pending pod with placement constraints makeroom cannot check: it cannot show the pod fits on the freed node. */
    public static final String UNCHECKED_CONSTRAINTS = MoveBlocker.UNCHECKED_CONSTRAINTS.name();
    /** A pending pod preemption places: left to the scheduler. */
    public static final String PREEMPTION = "PREEMPTION";
    /** A pending pod for which room is held already, or which is nominated to a node. */
    public static final String HELD = "HELD";
}
