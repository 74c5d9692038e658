package dev.makeroom.core.reschedule;

import java.time.Instant;

/** An eviction the rescheduler made earlier, for the hourly limits. */
public record PastEviction(Instant at, String namespace, String controllerUid) {
}
