package dev.makeroom.cluster;

import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Consolidation kept a node empty, then a pod arrives that fits only there: the scheduler cannot see
 * that room (the taint keeps it off) and asks for victims; makeroom names none, puts the node back into
 * service and says so on the pod and the node. The demo cluster, with one more node kept empty, through
 * the README's preempt body over real HTTP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.source=kubernetes", "makeroom.cluster.config-map-namespace=makeroom-system"})
class HeldRoomReleaseOverHttpTest {

    private static final String KEPT = "node-kept";

    private static KubernetesMockServer server;
    private static KubernetesClient admin;
    private static String body;

    @TestConfiguration
    static class MockApi {
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient() {
            return MockApiClients.clientFor(server);
        }
    }

    @BeforeAll
    static void serveTheDemoClusterWithAKeptNode() throws Exception {
        server = FaultyApi.serve(new FaultyApi());
        admin = FaultyApi.admin(server);
        body = DemoClusterOnMockApi.createAndAskPreempt(admin);
        Taint kept = new Taint("NoSchedule", ConsolidationMark.TAINT_KEY, null,
                ConsolidationMark.emptied(Instant.now().minusSeconds(120)).value());
        admin.resource(new NodeBuilder().withNewMetadata().withName(KEPT)
                .withLabels(Map.of("kubernetes.io/hostname", KEPT, "kubernetes.io/os", "linux")).endMetadata()
                .withNewSpec().withTaints(kept).endSpec()
                .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("4"), "memory", new Quantity("8Gi"),
                        "pods", new Quantity("110"))).withCapacity(Map.of("cpu", new Quantity("4"),
                        "memory", new Quantity("8Gi"), "pods", new Quantity("110"))).endStatus().build()).create();
    }

    @AfterAll
    static void stop() {
        admin.close();
        MockServers.destroy(server);
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private static List<Event> released(String namespace) {
        return admin.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> KeptNodeReleases.REASON.equals(e.getReason())).toList();
    }

    private static List<String> taintKeys() {
        Node node = admin.nodes().withName(KEPT).get();
        return node.getSpec().getTaints() == null ? List.of()
                : node.getSpec().getTaints().stream().map(Taint::getKey).toList();
    }

    @Test
    void the_kept_node_is_released_and_no_one_is_evicted() {
        Await.until("makeroom is ready and sees the kept node", Duration.ofSeconds(30),
                () -> new ExtenderClient(managementPort).get("/actuator/health/readiness").statusCode() == 200
                        && new ExtenderClient(managementPort).get("/debug/nodes").body().contains(KEPT));
        var answer = new ExtenderClient(port).post("/scheduler/preempt", body);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).as("no victims anywhere").isEqualTo("{\"NodeNameToMetaVictims\":{}}");
        Await.until("the taint is removed", Duration.ofSeconds(20), () -> taintKeys().isEmpty());
        Await.until("the pod and the node are told", Duration.ofSeconds(20),
                () -> !released("default").isEmpty() && released("default").size() >= 2);
        assertThat(released("default")).extracting(e -> e.getInvolvedObject().getKind() + "/" + e.getInvolvedObject().getName())
                .containsExactlyInAnyOrder("Pod/critical-job", "Node/" + KEPT);
        assertThat(released("default")).allSatisfy(e -> assertThat(e.getMessage())
                .contains("back into service for default/critical-job").contains("no one is evicted"));
        assertThat(admin.pods().inAnyNamespace().list().getItems()).as("every pod is still there")
                .noneMatch(p -> p.getMetadata().getDeletionTimestamp() != null);
        String decisions = new ExtenderClient(managementPort).get("/debug/decisions").body();
        assertThat(decisions).contains("RELEASE").contains("node " + KEPT + " is kept empty");
    }
}
