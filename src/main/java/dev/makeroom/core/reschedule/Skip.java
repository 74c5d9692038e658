package dev.makeroom.core.reschedule;

import dev.makeroom.core.model.PodRef;

/**
 * A pod a policy wanted to move and did not, and why: {@code category} is a {@link MoveBlocker} name,
 * {@code LIMIT} or {@code NO_LANDING} (for counting), {@code reason} says it in words.
 */
public record Skip(PodRef pod, String node, ReschedulePolicy policy, String category, String reason) {

    public static final String LIMIT = "LIMIT";
    public static final String NO_LANDING = "NO_LANDING";
}
