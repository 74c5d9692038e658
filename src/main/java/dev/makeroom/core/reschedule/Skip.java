package dev.makeroom.core.reschedule;

import dev.makeroom.core.model.PodRef;

/** A pod a policy wanted to move and did not, and why. */
public record Skip(PodRef pod, String node, ReschedulePolicy policy, String reason) {
}
