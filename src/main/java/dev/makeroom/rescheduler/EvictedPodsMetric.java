package dev.makeroom.rescheduler;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.HashSet;
import java.util.Set;

/**
 * Pods the rescheduler evicted, by namespace and node, as the descheduler's
 * {@code descheduler_pods_evicted} counts them, so "which team, which node" needs no log search.
 * Bounded: at most {@link #MAX_SERIES} namespace/node pairs get series of their own, the first
 * seen; every later pair is counted under namespace and node {@value #OTHER}, so a 5,000-node
 * cluster with many namespaces cannot grow Prometheus without end.
 */
final class EvictedPodsMetric {

    static final int MAX_SERIES = 1000;
    static final String OTHER = "_other";

    private final MeterRegistry registry;
    private final Set<String> pairs = new HashSet<>();

    EvictedPodsMetric(MeterRegistry registry) {
        this.registry = registry;
        counter(OTHER, OTHER); // exists from the start: "none beyond the bound" reads as 0, not as no data
    }

    synchronized void evicted(String namespace, String node) {
        String pair = namespace + "\n" + node;
        if (pairs.contains(pair) || pairs.size() < MAX_SERIES && pairs.add(pair)) {
            counter(namespace, node).increment();
        } else {
            counter(OTHER, OTHER).increment();
        }
    }

    private Counter counter(String namespace, String node) {
        return Counter.builder("makeroom.rescheduler.evicted.pods")
                .description("Pods evicted, by namespace and node (at most " + MAX_SERIES + " pairs, the rest as "
                        + OTHER + ")")
                .tag("namespace", namespace).tag("node", node).register(registry);
    }
}
