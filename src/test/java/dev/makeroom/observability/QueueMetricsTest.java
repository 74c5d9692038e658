package dev.makeroom.observability;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Promtool;
import dev.makeroom.support.ReadmeExample;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

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
        List<ReadmeExample> examples = ReadmeExample.all().stream()
                .filter(example -> example.path().startsWith("/debug/queues")).toList();
        assertThat(examples).as("the README shows a queue example").isNotEmpty();
        for (ReadmeExample example : examples) {
            assertThat(example.replay(0, managementPort).body()).as(example.command()).isEqualTo(example.printed());
        }
    }

    @Test
    void every_queue_shows_usage_guarantee_and_max_and_promtool_accepts_them() throws Exception {
        String metrics = new ExtenderClient(managementPort).get("/actuator/prometheus").body();

        // shop runs 11 CPUs of the demo's pods; every pod maps somewhere, so root holds them all (15)
        assertThat(metrics)
                .contains("makeroom_queue_usage{queue=\"root.shop\",resource=\"cpu\",unit=\"core\"} 11.0")
                .contains("makeroom_queue_usage{queue=\"root\",resource=\"cpu\",unit=\"core\"} 15.0")
                .contains("makeroom_queue_guaranteed{queue=\"root.shop\",resource=\"cpu\",unit=\"core\"} 4.0")
                .contains("makeroom_queue_max{queue=\"root.shop\",resource=\"memory\",unit=\"byte\"} " + (24.0 * (1L << 30)))
                .contains("makeroom_queue_usage{queue=\"root.tenants.team-b\",resource=\"cpu\",unit=\"core\"} 0.0")
                .contains("makeroom_queue_config_reload_failures_total 0.0")
                // default's three pending pods (2 + 0.5 + 1 cpu), none nominated yet
                .contains("makeroom_queue_pending{queue=\"root.default\",resource=\"cpu\",unit=\"core\"} 3.5")
                .contains("makeroom_queue_pending{queue=\"root\",resource=\"cpu\",unit=\"core\"} 3.5")
                .contains("makeroom_queue_pending{queue=\"root.shop\",resource=\"cpu\",unit=\"core\"} 0.0")
                .contains("makeroom_queue_preempting{queue=\"root.default\",resource=\"cpu\",unit=\"core\"} 0.0");
        assertThat(Promtool.findingsAboutMakeroom(metrics)).isEmpty();
        // the dashboard's queue panels read series this replica exposes
        String dashboard = java.nio.file.Files.readString(java.nio.file.Path.of("helm/makeroom/dashboards/makeroom.json"));
        java.util.regex.Matcher queried = java.util.regex.Pattern.compile("makeroom_queue_[a-z_]+").matcher(dashboard);
        int panels = 0;
        while (queried.find()) {
            assertThat(metrics).as(queried.group()).containsPattern("(?m)^" + queried.group() + "\\{");
            panels++;
        }
        assertThat(panels).isGreaterThanOrEqualTo(5);
    }

    @Test
    void every_resource_says_its_unit_so_cores_and_bytes_are_never_mixed() {
        assertThat(QueueMetrics.unitOf("cpu")).isEqualTo("core");
        assertThat(QueueMetrics.unitOf("memory")).isEqualTo("byte");
        assertThat(QueueMetrics.unitOf("ephemeral-storage")).isEqualTo("byte");
        assertThat(QueueMetrics.unitOf("hugepages-2Mi")).isEqualTo("byte");
        assertThat(QueueMetrics.unitOf("pods")).isEqualTo("integer");
        assertThat(QueueMetrics.unitOf("nvidia.com/gpu")).isEqualTo("integer");
    }
}
