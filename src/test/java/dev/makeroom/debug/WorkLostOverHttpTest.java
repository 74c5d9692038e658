package dev.makeroom.debug;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import dev.makeroom.support.MutableClock;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import tools.jackson.databind.JsonNode;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The work-lost objective as an operator turns it on, over HTTP on examples/gpu-training-cluster.yaml
 * at 2026-12-06 12:00: the three sweeps that checkpointed ten minutes ago go instead of the one job
 * that has not saved for a day; under the default objective the one job goes, and the decision says
 * what it loses.
 */
class WorkLostOverHttpTest {

    static final Instant ASKED = Instant.parse("2026-12-06T12:00:00Z");

    @TestConfiguration
    static class AtNoon {
        @Bean
        @Primary
        MutableClock testClock() {
            return new MutableClock(ASKED);
        }
    }

    static JsonNode simulate(int managementPort) {
        var response = new ExtenderClient(managementPort).post("/debug/simulate", "{\"pod\": \"ml/urgent-train\"}");
        assertThat(response.statusCode()).isEqualTo(200);
        return Json.parse(response.body()).get("preemption");
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, classes = {
            dev.makeroom.MakeroomApplication.class, AtNoon.class}, properties = {
            "makeroom.cluster.snapshot=examples/gpu-training-cluster.yaml", "makeroom.web.warmup=0s",
            "makeroom.preemption.objective=work-lost"})
    class WorkLost {

        @LocalManagementPort
        int managementPort;

        @Test
        void the_sweeps_that_just_checkpointed_go_instead_of_the_job_that_did_not() {
            JsonNode preemption = simulate(managementPort);

            assertThat(preemption.get("detail").asString())
                    .isEqualTo("on gpu-b evict ml/sweep-1, ml/sweep-2, ml/sweep-3");
            assertThat(preemption.get("workLostHours").asDouble()).isCloseTo(406 * 600 / 3600.0, within(0.01));
            JsonNode gpuA = node(preemption, "gpu-a");
            assertThat(gpuA.get("objective").get("workLost").asLong()).isEqualTo(408L * 86_400 * 1000);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, classes = {
            dev.makeroom.MakeroomApplication.class, AtNoon.class}, properties = {
            "makeroom.cluster.snapshot=examples/gpu-training-cluster.yaml", "makeroom.web.warmup=0s"})
    class Default {

        @LocalManagementPort
        int managementPort;

        @Test
        void the_fewest_victims_go_and_the_decision_says_what_they_lose() {
            JsonNode preemption = simulate(managementPort);

            assertThat(preemption.get("detail").asString()).isEqualTo("on gpu-a evict ml/long-run");
            assertThat(preemption.get("workLostHours").asDouble()).isCloseTo(408 * 24.0, within(0.01));
            JsonNode objective = node(preemption, "gpu-a").get("objective");
            // the default objective weighs work lost only as its first tie-break: listed where it is compared
            assertThat(objective.get("workLost").asLong()).isEqualTo(408L * 86_400 * 1000);
            assertThat(objective.propertyNames()).containsSubsequence("victims", "prioritySum", "workLost", "qosRankSum");
        }
    }

    private static JsonNode node(JsonNode preemption, String name) {
        for (JsonNode n : preemption.get("nodes")) {
            if (n.get("node").asString().equals(name)) {
                return n;
            }
        }
        throw new AssertionError(name + " not among " + preemption.get("nodes"));
    }
}
