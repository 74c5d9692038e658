package dev.makeroom.web;

import dev.makeroom.support.ReadmeExample;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code $ curl} example in the README, replayed in order on the demo cluster, prints what the
 * README says (the queue examples need the example queue configuration: QueueMetricsTest replays those).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.BEFORE_CLASS) // a fresh decision log, as a reader's would be
class ReadmeExamplesTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void the_readme_curl_examples_print_what_the_readme_says() throws IOException {
        List<ReadmeExample> examples = ReadmeExample.all().stream()
                .filter(example -> !example.path().startsWith("/debug/queues") && !example.path().startsWith("/debug/rescheduler"))
                .toList();
        for (ReadmeExample example : examples) {
            HttpResponse<String> response = example.replay(port, managementPort);
            assertThat(response.statusCode()).as(example.command()).isLessThan(500);
            if (example.pretty()) {
                assertThat(ReadmeExample.steady(response.body())).as(example.command()).isEqualTo(example.expected());
            } else {
                // a text answer ends its last line; the page shows the lines
                assertThat(response.body().replaceFirst("\n$", "")).as(example.command()).isEqualTo(example.printed());
            }
        }
        // filter, prioritize, preempt; nodes, a node, an unknown node, pending, decisions, simulate, why
        assertThat(examples).hasSize(10);
    }
}
