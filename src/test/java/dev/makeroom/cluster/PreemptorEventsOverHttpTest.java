package dev.makeroom.cluster;

import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's preempt example against makeroom watching an API that holds the demo cluster: the
 * decision leaves one Event on the preemptor, which says where, whom, and the scheduler's own pick;
 * the scheduler asking again does not add another.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.source=kubernetes", "makeroom.cluster.config-map-namespace=makeroom-system"})
class PreemptorEventsOverHttpTest {

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
    static void serveTheDemoCluster() throws Exception {
        server = FaultyApi.serve(new FaultyApi());
        admin = FaultyApi.admin(server);
        body = DemoClusterOnMockApi.createAndAskPreempt(admin);
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

    private static List<Event> told() {
        return admin.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> PreemptionEvents.REASON.equals(e.getReason())).toList();
    }

    @Test
    void a_preemption_decision_is_told_on_the_preemptor_once() {
        Await.until("makeroom is ready", Duration.ofSeconds(30),
                () -> new ExtenderClient(managementPort).get("/actuator/health/readiness").statusCode() == 200);
        var answer = new ExtenderClient(port).post("/scheduler/preempt", body);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).contains("\"NodeNameToMetaVictims\":{\"");
        Await.until("the Event is written", Duration.ofSeconds(20), () -> !told().isEmpty());
        assertThat(told()).singleElement().satisfies(event -> {
            assertThat(event.getInvolvedObject().getName()).isEqualTo("critical-job");
            assertThat(event.getMessage()).startsWith("makeroom chose node ").contains(": evict ")
                    .containsPattern("the scheduler's heuristic chose \\d+ \\(on node-[a-z]\\)");
        });
        assertThat(new ExtenderClient(port).post("/scheduler/preempt", body).statusCode()).isEqualTo(200);
        // Events are written in order on one thread: once another pod's is there, a second one would be too
        String another = body.replace("critical-job", "critical-job-2")
                .replaceFirst("\"uid\": \"[^\"]+\"", "\"uid\": \"another-pending-pod\""); // the Pod's own, first
        assertThat(new ExtenderClient(port).post("/scheduler/preempt", another).statusCode()).isEqualTo(200);
        Await.until("the other pod's Event is written", Duration.ofSeconds(20), () -> told().size() >= 2);
        assertThat(told()).as("the same decision again is not news")
                .filteredOn(e -> e.getInvolvedObject().getName().equals("critical-job")).hasSize(1);
    }
}
