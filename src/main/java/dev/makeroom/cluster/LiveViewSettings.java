package dev.makeroom.cluster;

import java.time.Duration;

/** How the live view watches the API: resync period, makeroom's own ConfigMap, eviction memory. */
public record LiveViewSettings(Duration resync, String configMapNamespace, String configMapName,
                               Duration evictionMemory) {
}
