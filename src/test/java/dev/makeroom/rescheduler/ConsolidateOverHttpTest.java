package dev.makeroom.rescheduler;

import dev.makeroom.support.ReadmeExample;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The consolidate policy's worked example over HTTP: makeroom on {@code examples/consolidate-cluster.yaml}
 * with the rescheduler on and no document of its own, asked what a round would do under
 * {@code examples/consolidate.yaml}, answers what the README prints.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.snapshot=examples/consolidate-cluster.yaml", "makeroom.rescheduler.enabled=true"})
class ConsolidateOverHttpTest {

    static final String DOCUMENT = "examples/consolidate.yaml";

    @LocalManagementPort
    int managementPort;

    @Test
    void the_readmes_consolidate_example_answers_as_printed() throws Exception {
        List<ReadmeExample> examples = ReadmeExample.all().stream()
                .filter(example -> example.command().contains(DOCUMENT)).toList();
        assertThat(examples).as("the README shows the consolidate example").hasSize(1);
        HttpResponse<String> response = examples.get(0).replay(0, managementPort);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(ReadmeExample.steady(response.body())).isEqualTo(examples.get(0).expected());
        // what the README says: node-4 not started (debug-shell), node-3 emptied whole onto the fullest nodes
        assertThat(response.body()).contains("\"node\":\"node-4\",\"step\":\"NOT_STARTED\"")
                .contains("\"node\":\"node-3\",\"step\":\"START\"")
                .contains("\"shop/web-1 to node-1\",\"shop/batch-1 to node-2\"")
                .doesNotContain("agent-node-3");
    }
}
