package dev.makeroom.web;

import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties =
        "makeroom.cluster.snapshot=src/test/resources/fixtures/kube-scheduler-v1.26/cache-capable/cluster-at-preempt.json")
class CacheCapableReplayTest extends FixtureReplaySupport {

    @Override
    String folder() {
        return "cache-capable";
    }

    @Test
    void filter_answers_with_node_names_in_the_shape_the_scheduler_sent() {
        JsonNode response = call("filter", "filter-request.json");
        JsonNode real = Json.parse(dev.makeroom.support.Fixtures.read(folder(), "filter-response.json"));

        assertThat(fieldNames(response)).containsExactlyElementsOf(fieldNames(real));
        assertThat(response.get("Nodes").isNull()).isTrue();
        assertThat(response.get("Error").asString()).isEmpty();
    }

    /** The scheduler asks only of nodes its own filters passed: makeroom, whose view can only be behind, refuses none for resources. */
    @Test
    void filter_passes_every_node_the_schedulers_filters_passed_whatever_makeroom_counts_there() {
        JsonNode request = request(folder(), "filter-request.json");

        JsonNode response = call("filter", "filter-request.json");

        assertThat(names(response.get("NodeNames"))).containsExactlyElementsOf(names(request.get("NodeNames")));
        assertThat(fieldNames(response.get("FailedNodes"))).isEmpty();
        assertThat(fieldNames(response.get("FailedAndUnresolvableNodes"))).isEmpty();
    }

    /**
     * Captured as the retry after a preemption: the scheduler found room on the nominated node while the
     * cluster makeroom was given still shows the victim there. Refusing it would park the pod (on 1.32 and
     * later no event requeues a pod the extender refused); makeroom passes it.
     */
    @Test
    void filter_passes_the_nominated_node_though_makeroom_still_sees_its_victim_there() {
        JsonNode response = call("filter", "filter-nominated-node-request.json");

        assertThat(names(response.get("NodeNames"))).containsExactly("node-2");
        assertThat(fieldNames(response.get("FailedNodes"))).isEmpty();
    }

    @Test
    void prioritize_scores_every_node_asked_in_order() {
        JsonNode request = request(folder(), "prioritize-request.json");
        JsonNode response = call("prioritize", "prioritize-request.json");

        assertThat(response.isArray()).isTrue();
        List<String> hosts = new ArrayList<>();
        response.forEach(entry -> {
            hosts.add(entry.get("Host").asString());
            assertThat(entry.get("Score").asInt()).isBetween(0, 10);
            assertThat(fieldNames(entry)).containsExactly("Host", "Score");
        });
        assertThat(hosts).containsExactlyElementsOf(names(request.get("NodeNames")));
    }

    @Test
    void preempt_answers_the_first_of_equally_good_nodes_with_the_schedulers_own_victims_there() {
        JsonNode request = request(folder(), "preempt-request.json");
        JsonNode response = call("preempt", "preempt-request.json");

        JsonNode answer = response.get("NodeNameToMetaVictims");
        assertThat(fieldNames(response)).containsExactly("NodeNameToMetaVictims");
        assertThat(fieldNames(answer)).containsExactly("node-1");
        assertThat(answer.get("node-1")).isEqualTo(request.get("NodeNameToMetaVictims").get("node-1"));
    }

    @Test
    void every_captured_filter_and_prioritize_call_replays() {
        for (String file : allCalls("filter")) {
            JsonNode request = request(folder(), file);
            JsonNode response = call("filter", file);
            List<String> answered = new ArrayList<>(names(response.get("NodeNames")));
            answered.addAll(fieldNames(response.get("FailedNodes")));
            assertThat(answered).as(file).containsExactlyInAnyOrderElementsOf(names(request.get("NodeNames")));
        }
        for (String file : allCalls("prioritize")) {
            assertThat(call("prioritize", file).size()).as(file)
                    .isEqualTo(request(folder(), file).get("NodeNames").size());
        }
    }
}
