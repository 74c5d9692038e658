package dev.makeroom.web;

import dev.makeroom.support.ExtenderClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a person types gets the answer the scheduler gets: a verb's body is JSON whatever its
 * Content-Type says (curl's {@code -d} sends a form type unless told otherwise), and {@code /debug/why}
 * asked for a pod without its namespace says how to ask, and where pods of that name are.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class VerbBodiesWhateverTheirTypeTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void each_verb_answers_a_json_body_sent_as_a_form_or_untyped_as_it_answers_it_typed() throws IOException {
        ExtenderClient client = new ExtenderClient(port);
        for (String verb : List.of("filter", "prioritize", "preempt")) {
            String body = Files.readString(Path.of("examples/requests/" + verb + ".json"));
            HttpResponse<String> typed = client.post("/scheduler/" + verb, "application/json", body);
            assertThat(typed.statusCode()).isEqualTo(200);
            for (String type : List.of("application/x-www-form-urlencoded", "text/plain", "application/octet-stream")) {
                HttpResponse<String> other = client.post("/scheduler/" + verb, type, body);
                assertThat(other.statusCode()).as("%s sent as %s", verb, type).isEqualTo(200);
                assertThat(other.body()).as("%s sent as %s", verb, type).isEqualTo(typed.body());
            }
        }
    }

    @Test
    void why_for_a_pod_named_without_its_namespace_says_how_to_ask() {
        HttpResponse<String> answer = new ExtenderClient(managementPort).get("/debug/why?pod=critical-job");
        assertThat(answer.statusCode()).isEqualTo(404);
        assertThat(answer.body()).contains("no pod critical-job in the view: name it as namespace/name")
                .contains("pods named critical-job: default/critical-job");
    }

    @Test
    void why_with_an_empty_pod_says_how_to_ask_rather_than_finding_no_pod() {
        HttpResponse<String> answer = new ExtenderClient(managementPort).get("/debug/why?pod=");
        assertThat(answer.statusCode()).isEqualTo(400);
        assertThat(answer.body()).contains("name the pod: ?pod=namespace/name").doesNotContain("no pod");
    }
}
