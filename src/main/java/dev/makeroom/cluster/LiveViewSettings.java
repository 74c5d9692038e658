package dev.makeroom.cluster;

import dev.makeroom.core.model.KubeVersion;

import java.time.Duration;

/**
 * How the live view watches the API: resync period, makeroom's own ConfigMap, eviction memory, and
 * the Kubernetes version whose scheduler it answers ({@code version}; null: read from the API server's
 * {@code /version}).
 */
public record LiveViewSettings(Duration resync, String configMapNamespace, String configMapName,
                               Duration evictionMemory, KubeVersion version) {

    /** The version read from the API server. */
    public LiveViewSettings(Duration resync, String configMapNamespace, String configMapName, Duration evictionMemory) {
        this(resync, configMapNamespace, configMapName, evictionMemory, null);
    }
}
