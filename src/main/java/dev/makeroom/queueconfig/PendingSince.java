package dev.makeroom.queueconfig;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.makeroom.core.model.PodInfo;

import java.time.Duration;
import java.time.Instant;

/**
 * When a pending pod started waiting, for the queue delay: its creation time, else the first time
 * makeroom saw it pending (remembered a while, bounded, so a flood of pods cannot grow it without end).
 */
final class PendingSince {

    private final Cache<String, Instant> firstSeen = Caffeine.newBuilder()
            .maximumSize(100_000)
            .expireAfterAccess(Duration.ofHours(6))
            .build();

    Instant of(PodInfo pod, Instant now) {
        if (pod.creationTime() != null) {
            return pod.creationTime();
        }
        return firstSeen.get(pod.uid(), uid -> now);
    }
}
