package dev.makeroom.core.room;

import dev.makeroom.core.model.PodColumns;

import java.time.Instant;

/**
 * A victim's age cost for the last tie-break (newer victims first): seconds between its start and
 * a fixed far-future reference. A fixed reference keeps costs comparable across nodes and
 * requests, and never negative, so sums only grow as victims are added. A pod that has not
 * started yet costs 0, like the newest.
 */
final class Age {

    static final Instant REFERENCE = Instant.parse("2200-01-01T00:00:00Z");

    private Age() {
    }

    /** The cost of a pod started at epoch second {@code startSecond} ({@link PodColumns#NOT_STARTED}: not yet). */
    static long ofStart(long startSecond) {
        return startSecond == PodColumns.NOT_STARTED ? 0 : Math.max(0, REFERENCE.getEpochSecond() - startSecond);
    }
}
