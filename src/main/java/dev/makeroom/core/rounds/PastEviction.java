package dev.makeroom.core.rounds;

import java.time.Instant;
import java.util.Map;

/**
 * An eviction the rescheduler made earlier, for the hourly limits; {@code labels} are the pod's, so
 * a gentle rescheduler can count what it took of each disruption budget in the hour.
 */
public record PastEviction(Instant at, String namespace, String controllerUid, Map<String, String> labels) {

    public PastEviction {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    public PastEviction(Instant at, String namespace, String controllerUid) {
        this(at, namespace, controllerUid, Map.of());
    }
}
