package dev.makeroom.rescheduler;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.ReadmeExample;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Defragmentation on its example cluster (four nodes, 2 cpus free on each, a 4-cpu pod waiting): the
 * README's question about one pending pod answers as printed, and wrong questions get clear errors.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.snapshot=examples/defragment-cluster.yaml", "makeroom.rescheduler.enabled=true",
        "makeroom.rescheduler.file=examples/rescheduler.yaml"})
class DefragmentOverHttpTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void the_readmes_defragmentation_example_answers_as_printed() throws Exception {
        List<ReadmeExample> examples = ReadmeExample.all().stream()
                .filter(example -> example.path().startsWith("/debug/rescheduler/plan?pod=")).toList();
        assertThat(examples).as("the README shows a defragmentation example").isNotEmpty();
        for (ReadmeExample example : examples) {
            var response = example.replay(0, managementPort);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(ReadmeExample.steady(response.body())).as(example.command()).isEqualTo(example.expected());
        }
    }

    @Test
    void asking_about_a_pod_that_is_not_pending_or_not_named_right_says_what_is_wrong() {
        ExtenderClient management = new ExtenderClient(managementPort);
        var unknown = management.post("/debug/rescheduler/plan?pod=batch/nope", null, "");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.body()).contains("no pending pod batch/nope in makeroom's view");
        var running = management.post("/debug/rescheduler/plan?pod=shop/web-1", null, "");
        assertThat(running.statusCode()).isEqualTo(404);
        var unnamed = management.post("/debug/rescheduler/plan?pod=report", null, "");
        assertThat(unnamed.statusCode()).isEqualTo(400);
        assertThat(unnamed.body()).contains("pod must be namespace/name");
    }
}
