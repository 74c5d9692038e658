package dev.makeroom.debug;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The debug API on the management port, on the demo cluster. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DebugApiTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void a_decision_explains_every_candidate_node() throws IOException {
        new ExtenderClient(port).post("/scheduler/preempt", Files.readString(Path.of("examples/requests/preempt.json")));

        JsonNode decisions = Json.parse(new ExtenderClient(managementPort)
                .get("/debug/decisions?pod=default/critical-job").body());

        JsonNode decision = decisions.get(0);
        assertThat(decision.get("outcome").asString()).isEqualTo("PREEMPT");
        assertThat(decision.get("answeredNodes").get(0).asString()).isEqualTo("node-a");
        assertThat(decision.get("provenOptimal").asBoolean()).isTrue();
        JsonNode nodeA = decision.get("nodes").get(0);
        assertThat(nodeA.get("node").asString()).isEqualTo("node-a");
        assertThat(nodeA.get("victims").get(0).get("pod").asString()).isEqualTo("default/batch-big");
        assertThat(nodeA.get("objective").get("victims").asInt()).isEqualTo(1);
        JsonNode nodeB = decision.get("nodes").get(1);
        assertThat(nodeB.get("feasible").asBoolean()).isFalse();
        assertThat(nodeB.get("reason").asString()).isEqualTo("NOT_ENOUGH_PREEMPTIBLE_RESOURCES");
        // the answer to "why not node-b": what kept each of its pods out of reach, counted
        assertThat(nodeB.get("detail").asString()).endsWith("not preemptible: 2 opted out by PriorityClass");
        assertThat(Json.parse(new ExtenderClient(managementPort).get("/debug/decisions?pod=default/nobody").body()))
                .isEmpty();
    }

    @Test
    void the_decisions_say_which_replica_they_are_of() {
        var answer = new ExtenderClient(managementPort).get("/debug/decisions");
        assertThat(answer.headers().firstValue("Makeroom-Decisions-Of")).hasValue(dev.makeroom.cluster.ReplicaName.get());
        assertThat(dev.makeroom.cluster.ReplicaName.get()).isNotBlank();
    }

    @Test
    void a_node_shows_its_pods_and_what_shields_them() {
        JsonNode node = Json.parse(new ExtenderClient(managementPort).get("/debug/nodes/node-b").body());

        assertThat(node.get("node").get("free").get("cpu").asLong()).isZero();
        assertThat(node.get("pods")).hasSize(2);
        assertThat(node.get("pods").get(0).get("protection").asString())
                .startsWith("opted out by PriorityClass service-protected");
    }

    @Test
    void nodes_are_listed_with_allocatable_requested_and_free() {
        JsonNode nodes = Json.parse(new ExtenderClient(managementPort).get("/debug/nodes").body());

        assertThat(nodes).hasSize(4);
        JsonNode nodeD = nodes.get(3);
        assertThat(nodeD.get("name").asString()).isEqualTo("node-d");
        assertThat(nodeD.get("free").get("cpu").asLong()).isEqualTo(1000);
        assertThat(nodeD.get("podsByPriority").get("500").asInt()).isEqualTo(1);
    }

    @Test
    void simulate_tells_why_a_pending_pod_waits_and_what_it_would_preempt() {
        HttpResponse<String> response = new ExtenderClient(managementPort).post("/debug/simulate",
                "{\"pod\": \"default/critical-job\"}");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode simulation = Json.parse(response.body());
        assertThat(simulation.get("fitsOn")).isEmpty();
        assertThat(simulation.get("doesNotFit").get("node-a").asString()).isEqualTo("Insufficient cpu");
        assertThat(simulation.get("preemption").get("detail").asString()).isEqualTo("on node-a evict default/batch-big");
    }

    @Test
    void simulate_takes_a_pod_in_yaml_and_changes_nothing() {
        String yaml = """
                apiVersion: v1
                kind: Pod
                metadata: {name: small, namespace: default}
                spec:
                  priority: 100
                  containers: [{name: c, resources: {requests: {cpu: 500m}}}]
                """;
        JsonNode simulation = Json.parse(new ExtenderClient(managementPort).post("/debug/simulate", yaml).body());

        assertThat(simulation.get("fitsOn")).extracting(JsonNode::asString).containsExactly("node-d");
        assertThat(Json.parse(new ExtenderClient(managementPort).get("/debug/decisions?pod=default/small").body()))
                .isEmpty();
    }

    @Test
    void simulate_rejects_what_it_cannot_read_and_unknown_pods() {
        ExtenderClient management = new ExtenderClient(managementPort);
        assertThat(management.post("/debug/simulate", "{{{").statusCode()).isEqualTo(400);
        assertThat(management.post("/debug/simulate", "").statusCode()).isEqualTo(400);
        HttpResponse<String> unknown = management.post("/debug/simulate", "{\"pod\": \"default/nobody\"}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(Json.parse(unknown.body()).get("error").asString()).isEqualTo("no such pod in the view");
        HttpResponse<String> badAmount = management.post("/debug/simulate", "kind: Pod\nmetadata: {name: p}\n"
                + "spec: {containers: [{name: c, resources: {requests: {cpu: 2a}}}]}\n");
        assertThat(badAmount.statusCode()).isEqualTo(400);
        assertThat(Json.parse(badAmount.body()).get("error").asString())
                .startsWith("Pod.spec.containers[0].resources.requests.cpu: '2a' is not a quantity");
    }

    @Test
    void an_unknown_node_is_a_json_404_and_the_debug_api_is_not_on_the_extender_port() {
        HttpResponse<String> unknown = new ExtenderClient(managementPort).get("/debug/nodes/nope");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(Json.parse(unknown.body()).get("error").asString()).contains("nope");

        assertThat(new ExtenderClient(port).get("/debug/nodes").statusCode()).isEqualTo(404);
    }
}
