package dev.makeroom.debug;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /debug/simulate} over HTTP on a cluster whose nodes refuse pods for reasons other than
 * resources (examples/placement-cluster.yaml): a cordon, a taint, a node selector, a host port, zone
 * spread, a node without the zone label. It answers where the scheduler could place the pod, and
 * preempts only where evicting pods could help.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"makeroom.cluster.snapshot=examples/placement-cluster.yaml", "makeroom.web.warmup=0s"})
class SimulatePlacementTest {

    @LocalManagementPort
    int managementPort;

    private JsonNode simulate(String pod) {
        var response = new ExtenderClient(managementPort).post("/debug/simulate", "{\"pod\": \"" + pod + "\"}");
        assertThat(response.statusCode()).isEqualTo(200);
        return Json.parse(response.body());
    }

    private static Map<String, String> reasons(JsonNode byNode) {
        Map<String, String> out = new java.util.TreeMap<>();
        byNode.properties().forEach(e -> out.put(e.getKey(), e.getValue().asString()));
        return out;
    }

    @Test
    void a_pod_refused_by_cordon_taint_port_spread_and_label_preempts_only_where_the_scheduler_would_try() {
        JsonNode web = simulate("default/web-3");

        assertThat(web.get("fitsOn")).isEmpty();
        assertThat(reasons(web.get("unresolvable"))).isEqualTo(Map.of(
                "node-a", "node(s) were unschedulable",
                "node-b", "node(s) had untolerated taint {dedicated: gpu}",
                "node-f", "node(s) didn't match pod topology spread constraints (missing required label)"));
        assertThat(reasons(web.get("doesNotFit"))).isEqualTo(Map.of(
                "node-c", "node(s) didn't have free ports for the requested pod ports",
                "node-d", "node(s) didn't match pod topology spread constraints",
                "node-e", "Insufficient cpu"));
        JsonNode preemption = web.get("preemption");
        assertThat(preemption.get("detail").asString()).isEqualTo("on node-e evict default/batch-big");
        List<String> tried = new ArrayList<>();
        preemption.get("nodes").forEach(n -> tried.add(n.get("node").asString()));
        assertThat(tried).containsExactlyInAnyOrder("node-c", "node-d", "node-e");
    }

    @Test
    void a_node_selector_that_matches_no_node_fits_nowhere_and_preempts_nothing() {
        JsonNode report = simulate("default/report");

        assertThat(report.get("fitsOn")).isEmpty();
        assertThat(report.get("doesNotFit")).isEmpty();
        assertThat(reasons(report.get("unresolvable"))).containsEntry("node-c", "node(s) didn't match Pod's node affinity/selector")
                .containsEntry("node-a", "node(s) were unschedulable").hasSize(6);
        assertThat(report.get("preemption").get("outcome").asString()).isEqualTo("NO_FEASIBLE_NODE");
        assertThat(report.get("preemption").get("nodes")).isEmpty();
    }

    @Test
    void a_pod_tolerating_every_taint_fits_on_cordoned_and_tainted_nodes_too() {
        JsonNode probe = simulate("default/probe");

        assertThat(probe.get("fitsOn")).extracting(JsonNode::asString)
                .containsExactly("node-a", "node-b", "node-c", "node-d", "node-f");
        assertThat(reasons(probe.get("doesNotFit"))).isEqualTo(Map.of("node-e", "Insufficient cpu"));
    }

    @Test
    void a_pod_with_a_volume_makeroom_does_not_model_is_unknown_never_fits() {
        String yaml = """
                apiVersion: v1
                kind: Pod
                metadata: {name: with-claim, namespace: default}
                spec:
                  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
                  containers: [{name: c, resources: {requests: {cpu: 100m}}}]
                """;
        JsonNode claim = Json.parse(new ExtenderClient(managementPort).post("/debug/simulate", yaml).body());

        assertThat(claim.get("fitsOn")).isEmpty();
        assertThat(reasons(claim.get("unknown"))).containsOnlyKeys("node-c", "node-d", "node-f")
                .allSatisfy((node, why) -> assertThat(why).startsWith("unknown: a persistentVolumeClaim volume"));
    }
}
