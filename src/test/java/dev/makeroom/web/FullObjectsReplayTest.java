package dev.makeroom.web;

import dev.makeroom.support.Fixtures;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties =
        "makeroom.cluster.snapshot=src/test/resources/fixtures/kube-scheduler-v1.26/full-objects/cluster-at-preempt.json")
class FullObjectsReplayTest extends FixtureReplaySupport {

    @Override
    String folder() {
        return "full-objects";
    }

    @Test
    void filter_answers_with_the_full_node_objects_it_was_sent() {
        JsonNode request = request(folder(), "filter-request.json");

        JsonNode response = call("filter", "filter-request.json");
        JsonNode real = Json.parse(Fixtures.read(folder(), "filter-response.json"));

        assertThat(fieldNames(response)).containsExactlyElementsOf(fieldNames(real));
        assertThat(response.get("NodeNames").isNull()).isTrue();
        assertThat(fieldNames(response.get("Nodes"))).containsExactlyInAnyOrder("metadata", "items");
        // every node the scheduler's filters passed, each object exactly as it was sent
        assertThat(response.get("Nodes").get("items")).isEqualTo(request.get("Nodes").get("items"));
        assertThat(response.get("FailedNodes").size()).isZero();
    }

    @Test
    void prioritize_reads_node_names_from_the_node_objects() {
        JsonNode response = call("prioritize", "prioritize-request.json");
        List<String> hosts = new ArrayList<>();
        response.forEach(entry -> hosts.add(entry.get("Host").asString()));
        assertThat(hosts).containsExactly("node-1", "node-2", "node-3");
    }

    @Test
    void preempt_reads_full_victim_pods_and_answers_with_meta_victims() {
        JsonNode request = request(folder(), "preempt-request.json");
        JsonNode response = call("preempt", "preempt-request.json");

        JsonNode answer = response.get("NodeNameToMetaVictims");
        assertThat(fieldNames(answer)).containsExactly("node-1");
        List<String> expected = new ArrayList<>();
        request.get("NodeNameToVictims").get("node-1").get("Pods")
                .forEach(pod -> expected.add(pod.get("metadata").get("uid").asString()));
        List<String> victims = new ArrayList<>();
        answer.get("node-1").get("Pods").forEach(pod -> {
            assertThat(fieldNames(pod)).containsExactly("UID");
            victims.add(pod.get("UID").asString());
        });
        assertThat(victims).containsExactlyElementsOf(expected);
        assertThat(answer.get("node-1").get("NumPDBViolations").asInt()).isZero();
    }

    @Test
    void the_single_feasible_node_call_passes_that_node() {
        JsonNode request = request(folder(), "filter-single-feasible-node-request.json");
        JsonNode response = call("filter", "filter-single-feasible-node-request.json");
        assertThat(response.get("Nodes").get("items").size()).isEqualTo(request.get("Nodes").get("items").size());
    }
}
