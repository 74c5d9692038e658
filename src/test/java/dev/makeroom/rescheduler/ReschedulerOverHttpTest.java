package dev.makeroom.rescheduler;

import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Promtool;
import dev.makeroom.support.ReadmeExample;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rescheduler on its example cluster with the example policies, in dry-run mode: the README's
 * /debug/rescheduler answers, rounds run on their own, and their metrics pass promtool.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.snapshot=examples/rescheduler-cluster.yaml", "makeroom.rescheduler.enabled=true",
        "makeroom.rescheduler.file=examples/rescheduler.yaml",
        "makeroom.rescheduler.interval=200ms"})
class ReschedulerOverHttpTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void the_readmes_rescheduler_examples_answer_as_printed() throws Exception {
        List<ReadmeExample> examples = ReadmeExample.all().stream()
                .filter(example -> example.path().startsWith("/debug/rescheduler") && !example.path().contains("?pod=")
                        && !example.command().contains(PoliciesOverHttpTest.DOCUMENT) // each on its own cluster
                        && !example.command().contains(ConsolidateOverHttpTest.DOCUMENT))
                .toList();
        assertThat(examples).as("the README shows a rescheduler example").isNotEmpty();
        for (ReadmeExample example : examples) {
            var response = example.replay(0, managementPort);
            assertThat(ReadmeExample.steady(response.body())).as(example.command()).isEqualTo(example.expected());
        }
    }

    @Test
    void rounds_run_on_their_own_in_dry_run_and_their_metrics_pass_promtool() throws Exception {
        ExtenderClient management = new ExtenderClient(managementPort);
        Await.until("a round has planned", Duration.ofSeconds(20),
                () -> management.get("/debug/rescheduler").body().contains("\"mode\":\"dry-run\",\"idle\":null"));
        String state = management.get("/debug/rescheduler").body();
        assertThat(state).contains("\"enabled\":true").contains("\"leading\":true").contains("\"result\":\"PLANNED\"")
                .doesNotContain("EVICTED");
        String metrics = management.get("/actuator/prometheus").body();
        assertThat(metrics).contains("makeroom_rescheduler_moves_total{policy=\"rebalance\"}")
                .contains("makeroom_rescheduler_leader 1.0").contains("makeroom_rescheduler_round_seconds_count")
                .contains("makeroom_rescheduler_backoffs 0.0")
                .contains("makeroom_rescheduler_evictions_total{policy=\"rebalance\",result=\"blocked_by_budget\"} 0.0")
                .contains("makeroom_rescheduler_skipped_total{category=\"budget\",policy=\"affinity\"} 0.0");
        assertThat(Promtool.findingsAboutMakeroom(metrics)).isEmpty();
    }
}
