package dev.makeroom.cluster;

import dev.makeroom.core.model.Reservation;
import dev.makeroom.mapping.PodGroupKind;
import dev.makeroom.mapping.ReservationAnnotation;
import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A waiting gang of three 2-cpu workers over three 2-cpu nodes, two full with low-priority pods and one
 * empty, with makeroom.preemption.gang-hold on: victims for the first worker, and the room found for the
 * other two held on their nodes, where makeroom's filter then keeps another pod off; a member whose
 * room is later found on another node is held there alone.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.source=kubernetes", "makeroom.cluster.config-map-namespace=makeroom-system",
        "makeroom.preemption.gang-hold=2m"})
class GangHoldOverHttpTest {

    private static KubernetesMockServer server;
    private static KubernetesClient admin;
    private static final Map<String, String> uids = new HashMap<>();

    @TestConfiguration
    static class MockApi {
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient() {
            return MockApiClients.clientFor(server);
        }
    }

    private static Pod pod(String name, String node, int priority, Map<String, String> labels) {
        return GangPods.pod(name, node, "2", priority, labels, Map.of());
    }

    @BeforeAll
    static void serve() {
        server = FaultyApi.serve(new FaultyApi());
        admin = FaultyApi.admin(server);
        for (String node : List.of("a", "b", "c")) {
            admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().withNewStatus()
                    .addToAllocatable("cpu", new Quantity("2")).addToAllocatable("pods", new Quantity("10"))
                    .endStatus().build()).create();
        }
        // the gang's PodGroup says all three must start together
        admin.genericKubernetesResources(PodGroupMinimumsOverApiTest.context(PodGroupKind.COSCHEDULING)).inNamespace("ml")
                .resource(PodGroupMinimumsOverApiTest.coscheduling("ml", "train", 3)).create();
        admin.resource(pod("low-a", "a", 0, Map.of())).create();
        admin.resource(pod("low-b", "b", 0, Map.of())).create();
        for (int i = 0; i < 3; i++) {
            Pod created = admin.resource(pod("worker-" + i, null, 1000,
                    Map.of("scheduling.x-k8s.io/pod-group", "train"))).create();
            uids.put(created.getMetadata().getName(), created.getMetadata().getUid());
        }
        for (String low : List.of("low-a", "low-b")) {
            uids.put(low, admin.pods().inNamespace("ml").withName(low).get().getMetadata().getUid());
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

    private static List<Reservation> heldOn(String node) {
        return ReservationAnnotation.read(admin.nodes().withName(node).get().getMetadata().getAnnotations());
    }

    @Test
    void the_room_found_for_the_other_workers_is_held_and_keeps_another_pod_off() {
        ExtenderClient management = new ExtenderClient(managementPort);
        Await.until("makeroom sees the waiting gang", Duration.ofSeconds(30),
                () -> management.get("/actuator/health/readiness").statusCode() == 200
                        && management.post("/debug/simulate", "{\"pod\":\"ml/worker-2\"}").body().contains("worker-2"));
        String worker0 = new KubernetesSerialization().asJson(admin.pods().inNamespace("ml").withName("worker-0").get());
        String body = "{\"Pod\":" + worker0 + ",\"NodeNameToMetaVictims\":{\"a\":{\"Pods\":[{\"UID\":\""
                + uids.get("low-a") + "\"}],\"NumPDBViolations\":0}}}";
        var answer = new ExtenderClient(port).post("/scheduler/preempt", body);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).contains(uids.get("low-a"));

        // worker-1 fits on the empty node c; worker-2 takes b, where low-b goes when the scheduler asks for it
        Await.until("the rooms are held", Duration.ofSeconds(20),
                () -> heldOn("c").size() == 1 && heldOn("b").size() == 1);
        assertThat(heldOn("c")).extracting(r -> r.pod().name()).containsExactly("worker-1");
        assertThat(heldOn("b")).extracting(r -> r.pod().name()).containsExactly("worker-2");
        assertThat(heldOn("a")).isEmpty();

        Await.until("the view has the holds", Duration.ofSeconds(20), () -> {
            String other = "{\"Pod\":{\"metadata\":{\"name\":\"other\",\"namespace\":\"ml\",\"uid\":\"other-1\"},"
                    + "\"spec\":{\"priority\":500,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}},"
                    + "\"NodeNames\":[\"c\"]}";
            // unresolvable: preempting there would take the room held for worker-1
            return new ExtenderClient(port).post("/scheduler/filter", other).body()
                    .contains("\"FailedAndUnresolvableNodes\":{\"c\"");
        });

        // The scheduler enacts: low-a goes, worker-0 is nominated to a. Meanwhile c fills and d joins, so
        // when the scheduler asks about worker-2 the room found for worker-1 is d: held there, and c let go.
        admin.pods().inNamespace("ml").withName("low-a").delete();
        admin.pods().inNamespace("ml").withName("worker-0").edit(p -> new PodBuilder(p).editStatus()
                .withNominatedNodeName("a").endStatus().build());
        admin.resource(pod("filler-c", "c", 2000, Map.of())).create();
        admin.nodes().resource(new NodeBuilder().withNewMetadata().withName("d").endMetadata().withNewStatus()
                .addToAllocatable("cpu", new Quantity("2")).addToAllocatable("pods", new Quantity("10"))
                .endStatus().build()).create();
        Await.until("makeroom sees the new node and the filled one", Duration.ofSeconds(20),
                () -> management.post("/debug/simulate", "{\"pod\":\"ml/worker-2\"}").body().contains("\"d\""));
        String worker2 = new KubernetesSerialization().asJson(admin.pods().inNamespace("ml").withName("worker-2").get());
        String again = new ExtenderClient(port).post("/scheduler/preempt", "{\"Pod\":" + worker2
                + ",\"NodeNameToMetaVictims\":{\"b\":{\"Pods\":[{\"UID\":\"" + uids.get("low-b")
                + "\"}],\"NumPDBViolations\":0}}}").body();
        assertThat(again).contains(uids.get("low-b"));
        Await.until("worker-1 is held on d alone", Duration.ofSeconds(20),
                () -> heldOn("d").size() == 1 && heldOn("c").isEmpty());
        assertThat(heldOn("d")).extracting(r -> r.pod().name()).containsExactly("worker-1");
    }
}
