package dev.makeroom.observability;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Promtool;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queue gauges and the README's /debug/queues answer on the demo cluster with the example queue
 * configuration, and promtool's verdict on the gauges.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "makeroom.queues.file=examples/queues.yaml")
class QueueMetricsTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void the_readmes_queue_example_answers_as_printed() throws Exception {
        List<String> readme = Files.readAllLines(Path.of("README.md"));
        int at = readme.indexOf("$ curl -s localhost:8081/debug/queues/root.shop");
        assertThat(at).as("the README shows the example").isPositive();
        assertThat(new ExtenderClient(managementPort).get("/debug/queues/root.shop").body()).isEqualTo(readme.get(at + 1));
    }

    @Test
    void every_queue_shows_usage_guarantee_and_max_and_promtool_accepts_them() throws Exception {
        String metrics = new ExtenderClient(managementPort).get("/actuator/prometheus").body();

        // shop runs 11 CPUs of the demo's pods; every pod maps somewhere, so root holds them all (15)
        assertThat(metrics)
                .contains("makeroom_queue_usage{queue=\"root.shop\",resource=\"cpu\"} 11.0")
                .contains("makeroom_queue_usage{queue=\"root\",resource=\"cpu\"} 15.0")
                .contains("makeroom_queue_guaranteed{queue=\"root.shop\",resource=\"cpu\"} 4.0")
                .contains("makeroom_queue_max{queue=\"root.shop\",resource=\"memory\"} " + (24.0 * (1L << 30)))
                .contains("makeroom_queue_usage{queue=\"root.tenants.team-b\",resource=\"cpu\"} 0.0")
                .contains("makeroom_queue_config_reload_failures_total 0.0");
        assertThat(Promtool.findingsAboutMakeroom(metrics)).isEmpty();
    }
}
