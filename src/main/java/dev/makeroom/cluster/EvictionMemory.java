package dev.makeroom.cluster;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.score.AvoidList;

import java.time.Duration;

/**
 * Remembers (controller, node) pairs where the kubelet evicted a pod, for a while, so prioritize
 * does not send the replacement straight back to the node that just evicted it.
 */
public final class EvictionMemory implements AvoidList {

    private final Cache<Key, Boolean> recent;

    private record Key(String controllerUid, String node) {
    }

    public EvictionMemory(Duration remember, Ticker ticker) {
        this.recent = Caffeine.newBuilder().expireAfterWrite(remember).ticker(ticker).maximumSize(100_000).build();
    }

    public void recordEviction(String controllerUid, String node) {
        recent.put(new Key(controllerUid, node), Boolean.TRUE);
    }

    @Override
    public boolean avoid(PodInfo pod, String node) {
        return pod.controller() != null && pod.controller().uid() != null
                && recent.getIfPresent(new Key(pod.controller().uid(), node)) != null;
    }
}
