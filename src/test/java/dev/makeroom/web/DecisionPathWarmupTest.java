package dev.makeroom.web;

import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * makeroom runs its decision paths before it reports ready, and leaves no trace of it: no decision
 * in the debug API, no preemption counted, nothing in the request metrics.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "makeroom.web.warmup=1s")
class DecisionPathWarmupTest {

    @LocalManagementPort
    int managementPort;

    @Autowired
    DecisionPathWarmup warmup;

    @Test
    void readiness_waits_for_the_warm_up_which_leaves_no_decision_and_no_metric() {
        ExtenderClient management = new ExtenderClient(managementPort);
        Await.until("ready", Duration.ofSeconds(30),
                () -> management.get("/actuator/health/readiness").statusCode() == 200);

        assertThat(warmup.done()).isTrue();
        assertThat(warmup.rounds()).isPositive();
        assertThat(Json.parse(management.get("/actuator/health/readiness").body()).path("components")
                .path("decisionPaths").path("status").asString()).isEqualTo("UP");
        assertThat(management.get("/debug/decisions").body()).isEqualTo("[]");
        String scrape = management.get("/actuator/prometheus").body();
        assertThat(scrape).doesNotContainPattern("(?m)^makeroom_preemption_decisions_total\\{[^}]*} [1-9]");
        assertThat(scrape).doesNotContainPattern("(?m)^makeroom_extender_request_seconds_count\\{[^}]*} [1-9]");
    }
}
