package dev.makeroom.rescheduler;

import dev.makeroom.core.rounds.RescheduleSettings;

import java.time.Instant;

/**
 * The rescheduler document in force and where it came from; {@code rejected} names what was wrong with
 * the last document that was turned away (null when the newest one was good).
 */
public record ReschedulerConfigState(RescheduleSettings settings, String source, Instant loadedAt, String rejected,
                                     Instant rejectedAt) {

    ReschedulerConfigState rejecting(String why, Instant at) {
        return new ReschedulerConfigState(settings, source, loadedAt, why, at);
    }
}
