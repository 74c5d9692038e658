package dev.makeroom.cluster;

import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
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
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A coscheduling gang of four, every member needed, one member on a full node: preempting it for an
 * important pod stops the other three. makeroom watches the gang through the API, and its Event on
 * the preemptor, `/debug/simulate` and its metrics say so.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.source=kubernetes", "makeroom.cluster.config-map-namespace=makeroom-system"})
class GangPreemptionOverHttpTest {

    private static KubernetesMockServer server;
    private static KubernetesClient admin;
    private static String memberUid;

    @TestConfiguration
    static class MockApi {
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient() {
            return MockApiClients.clientFor(server);
        }
    }

    private static Pod pod(String name, String node, String cpu, Map<String, String> labels) {
        return GangPods.pod(name, node, cpu, 0, labels, Map.of());
    }

    @BeforeAll
    static void serveAGang() {
        server = FaultyApi.serve(new FaultyApi());
        admin = FaultyApi.admin(server);
        for (String node : List.of("full", "other")) {
            admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().withNewStatus()
                    .addToAllocatable("cpu", new Quantity("4")).addToAllocatable("pods", new Quantity("10"))
                    .endStatus().build()).create();
        }
        Map<String, String> gang = Map.of("scheduling.x-k8s.io/pod-group", "train");
        memberUid = admin.resource(pod("worker-0", "full", "4", gang)).create().getMetadata().getUid();
        for (int i = 1; i < 4; i++) {
            admin.resource(pod("worker-" + i, "other", "1", gang)).create();
        }
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

    private static final String PENDING = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"urgent","namespace":"ml","uid":"pending-1"},
             "spec":{"priority":1000,"containers":[{"name":"c","resources":{"requests":{"cpu":"2"}}}]}}""";

    private static double counter(String scrape, String name) {
        Matcher m = Pattern.compile("^" + name + "(\\{[^}]*\\})? (\\S+)$", Pattern.MULTILINE).matcher(scrape);
        return m.find() ? Double.parseDouble(m.group(2)) : -1;
    }

    @Test
    void evicting_one_member_of_a_gang_that_needs_all_is_told_as_the_four_pods_it_costs() {
        ExtenderClient management = new ExtenderClient(managementPort);
        Await.until("makeroom sees the gang", Duration.ofSeconds(30),
                () -> management.get("/actuator/health/readiness").statusCode() == 200
                        && management.post("/debug/simulate", "{\"pod\":\"ml/worker-3\"}").body().contains("worker-3"));

        var simulated = management.post("/debug/simulate", PENDING);
        assertThat(simulated.body()).contains("\"gangsBroken\":[\"gang ml/train (coscheduling): 1 of 4 running evicted,"
                + " fewer than all left, the other 3 stop too\"]");

        String body = "{\"Pod\":" + PENDING + ",\"NodeNameToMetaVictims\":{\"full\":{\"Pods\":[{\"UID\":\"" + memberUid
                + "\"}],\"NumPDBViolations\":0}}}";
        var answer = new ExtenderClient(port).post("/scheduler/preempt", body);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).contains(memberUid);

        Await.until("the Event is written", Duration.ofSeconds(20), () -> !told().isEmpty());
        assertThat(told()).singleElement().satisfies(event -> assertThat(event.getMessage())
                .contains("evict ml/worker-0").contains("gang ml/train (coscheduling)")
                .contains("the other 3 stop too: the gang will restart"));
        String scrape = management.get("/actuator/prometheus").body();
        assertThat(counter(scrape, "makeroom_preemption_gangs_broken_total")).isEqualTo(1.0);
        assertThat(counter(scrape, "makeroom_preemption_gang_pods_lost_total")).isEqualTo(3.0);
    }

    private static List<Event> told() {
        return admin.v1().events().inNamespace("ml").list().getItems().stream()
                .filter(e -> PreemptionEvents.REASON.equals(e.getReason())).toList();
    }
}
