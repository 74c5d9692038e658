package dev.makeroom.web;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties =
        "makeroom.cluster.snapshot=src/test/resources/fixtures/kube-scheduler-v1.26/cache-capable-pdb/cluster-at-preempt.json")
class PdbReplayTest extends FixtureReplaySupport {

    @Override
    String folder() {
        return "cache-capable-pdb";
    }

    @Test
    void preempt_counts_the_violations_of_a_budget_that_allows_no_disruption() {
        JsonNode request = request(folder(), "preempt-request.json");
        JsonNode answer = call("preempt", "preempt-request.json").get("NodeNameToMetaVictims");

        assertThat(fieldNames(answer)).containsExactly("node-1");
        assertThat(answer.get("node-1").get("NumPDBViolations").asInt()).isEqualTo(2);
        assertThat(answer.get("node-1").get("Pods")).isEqualTo(request.get("NodeNameToMetaVictims").get("node-1").get("Pods"));
    }
}
