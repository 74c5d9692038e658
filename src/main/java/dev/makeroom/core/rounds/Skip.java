package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodRef;

/**
 * A pod a policy wanted to move and did not, and why: {@code category} for counting, {@code reason} in
 * words. For defragmentation, the pending pod that got no room ({@code node} null).
 */
public record Skip(PodRef pod, String node, ReschedulePolicy policy, SkipCategory category, String reason) {
}
