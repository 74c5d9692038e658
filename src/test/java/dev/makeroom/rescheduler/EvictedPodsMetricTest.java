package dev.makeroom.rescheduler;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EvictedPodsMetricTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EvictedPodsMetric metric = new EvictedPodsMetric(registry);

    private double count(String namespace, String node) {
        var counter = registry.find("makeroom.rescheduler.evicted.pods").tag("namespace", namespace).tag("node", node).counter();
        return counter == null ? -1 : counter.count();
    }

    @Test
    void each_pair_counts_on_its_own_until_the_bound_then_as_other() {
        for (int i = 0; i < EvictedPodsMetric.MAX_SERIES + 5; i++) {
            metric.evicted("ns-" + (i % 40), "node-" + i);
        }
        metric.evicted("ns-0", "node-0"); // a pair seen before the bound keeps its own series

        assertThat(registry.find("makeroom.rescheduler.evicted.pods").counters())
                .hasSize(EvictedPodsMetric.MAX_SERIES + 1);
        assertThat(count("ns-0", "node-0")).isEqualTo(2);
        assertThat(count("ns-1", "node-1")).isEqualTo(1);
        assertThat(count(EvictedPodsMetric.OTHER, EvictedPodsMetric.OTHER)).isEqualTo(5);
        assertThat(count("ns-" + (EvictedPodsMetric.MAX_SERIES % 40), "node-" + EvictedPodsMetric.MAX_SERIES)).isEqualTo(-1);
    }
}
