package dev.makeroom.web;

import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * makeroom runs its decision paths before it reports ready, and leaves no trace of it: no decision
 * in the debug API, no preemption counted, nothing in the request metrics (whose series exist at zero).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "makeroom.web.warmup=1s")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the guessed header's request comes after the clean slate is checked
class DecisionPathWarmupTest {

    @LocalManagementPort
    int managementPort;

    @LocalServerPort
    int serverPort;

    @Autowired
    DecisionPathWarmup warmup;

    @Test
    @Order(1)
    void readiness_waits_for_the_warm_up_which_leaves_no_decision_and_no_metric() {
        ExtenderClient management = new ExtenderClient(managementPort);
        Await.until("ready", Duration.ofSeconds(30),
                () -> management.get("/actuator/health/readiness").statusCode() == 200);

        assertThat(warmup.done()).isTrue();
        assertThat(warmup.rounds()).isPositive();
        assertThat(warmup.overHttp()).as("warmed through the extender port").isTrue();
        assertThat(Json.parse(management.get("/actuator/health/readiness").body()).path("components")
                .path("decisionPaths").path("status").asString()).isEqualTo("UP");
        assertThat(management.get("/debug/decisions").body()).isEqualTo("[]");
        String scrape = management.get("/actuator/prometheus").body();
        assertThat(scrape).doesNotContainPattern("(?m)^makeroom_preemption_decisions_total\\{[^}]*} [1-9]");
        assertThat(scrape).doesNotContainPattern("(?m)^makeroom_extender_request_seconds_count\\{[^}]*} [1-9]");
        // the series exist before the first call, at zero: meters made at start
        assertThat(scrape).containsPattern("(?m)^makeroom_preemption_decisions_total\\{result=\"preempt\"} 0")
                .containsPattern("(?m)^makeroom_preemption_node_searches_total\\{result=\"pdb_would_be_violated\"} 0")
                .containsPattern("(?m)^makeroom_extender_request_seconds_count\\{outcome=\"ok\",verb=\"preempt\"} 0");
    }

    @Test
    @Order(2)
    void a_request_that_only_names_the_warm_up_header_is_counted_like_any_other() throws Exception {
        HttpResponse<String> guessed = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + serverPort + "/scheduler/filter"))
                .header("Content-Type", "application/json").header(WarmupRequests.HEADER, "guess")
                .POST(HttpRequest.BodyPublishers.ofString("{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"NodeNames\":[]}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(guessed.statusCode()).isEqualTo(200);
        String scrape = new ExtenderClient(managementPort).get("/actuator/prometheus").body();
        assertThat(scrape).containsPattern("(?m)^makeroom_extender_request_seconds_count\\{[^}]*verb=\"filter\"[^}]*} [1-9]");
    }
}
