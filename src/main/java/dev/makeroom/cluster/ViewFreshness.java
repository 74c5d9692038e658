package dev.makeroom.cluster;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How current the live view is, per kind: the moment up to which every event of a live watch has
 * been applied. A quiet cluster stays current (nothing happening is not staleness); a dead watch
 * or a stuck applier makes the age grow. Times are {@link System#nanoTime()} readings.
 */
final class ViewFreshness {

    private final Map<ClusterEvent.Kind, AtomicLong> currentAsOf = new EnumMap<>(ClusterEvent.Kind.class);

    ViewFreshness(long startNanos) {
        for (ClusterEvent.Kind kind : ClusterEvent.Kind.values()) {
            currentAsOf.put(kind, new AtomicLong(startNanos));
        }
    }

    /** Every event of {@code kind} delivered before {@code asOfNanos} is in the view, and its watch is up. */
    void current(ClusterEvent.Kind kind, long asOfNanos) {
        currentAsOf.get(kind).accumulateAndGet(asOfNanos, Math::max);
    }

    /** Seconds the view of {@code kind} may be behind the API: 0 while current. */
    double staleSeconds(ClusterEvent.Kind kind, long nowNanos) {
        return Math.max(0, nowNanos - currentAsOf.get(kind).get()) / 1e9;
    }
}
