package dev.makeroom.cluster;

import dev.makeroom.mapping.AvoidPodsAnnotation;
import dev.makeroom.mapping.ReservationAnnotation;
import dev.makeroom.support.Json;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
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

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rescheduler enabled in evict mode against an API (the CRUD mock with the Eviction subresource):
 * on the rescheduler example cluster it evicts exactly what it planned, through evictions only, leaves
 * an Event and an avoid-list entry, reports a budget's refusal, and keeps to its limits.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.source=kubernetes", "makeroom.cluster.config-map-namespace=makeroom-system",
        "makeroom.rescheduler.enabled=true", "makeroom.rescheduler.mode=evict", "makeroom.rescheduler.interval=300ms"})
class ReschedulerAgainstTheApiTest {

    private static final Duration CONVERGE = Duration.ofSeconds(30);
    private static final FaultyApi API = new FaultyApi();
    private static KubernetesMockServer server;
    private static KubernetesClient admin;

    @TestConfiguration
    static class MockApi {
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient() {
            return MockApiClients.clientFor(server);
        }
    }

    @BeforeAll
    static void serveAnUnbalancedCluster() throws Exception {
        server = FaultyApi.serve(API);
        admin = FaultyApi.admin(server);
        for (HasMetadata object : new SnapshotFileLoader().load(Path.of("examples/rescheduler-cluster.yaml"))) {
            admin.resource(object).create();
        }
        API.refusedEvictions.add("ml/trainer-1"); // its budget allows no disruption now
        admin.resource(new ConfigMapBuilder().withNewMetadata().withName("makeroom-rescheduler")
                .withNamespace("makeroom-system").endMetadata()
                .addToData("rescheduler.yaml", examplePoliciesForPodsJustCreated()).build()).create();
    }

    /** The example policies, but for the example's least pod age: the mock API's pods were created a moment ago. */
    private static String examplePoliciesForPodsJustCreated() throws java.io.IOException {
        String example = Files.readString(Path.of("examples/rescheduler.yaml"));
        String young = example.replace("minPodAge: 10m ", "minPodAge: 0s  ");
        assertThat(young).as("the example's minPodAge").isNotEqualTo(example);
        return young;
    }

    @AfterAll
    static void stop() {
        admin.close();
        MockServers.destroy(server);
    }

    @LocalManagementPort
    int managementPort;

    @LocalServerPort
    int port;

    /**
     * The move of worker-2 holds its landing on the node it was proven on; the extender steers a
     * replacement (a later pod of its ReplicaSet) there and keeps a pod of no higher priority off the
     * room; once the replacement is bound there, a round closes the landing as planned and counts it.
     */
    @Test
    void a_moved_pods_replacement_is_steered_to_its_landing_which_closes_when_it_binds_there() {
        Await.until("worker-2 is evicted", CONVERGE,
                () -> admin.pods().inNamespace("shop").withName("worker-2").get() == null);
        String planned = admin.nodes().list().getItems().stream()
                .filter(n -> ReservationAnnotation.read(n.getMetadata().getAnnotations()).stream()
                        .anyMatch(r -> r.isLanding() && r.pod().name().equals("worker-2")))
                .map(n -> n.getMetadata().getName()).findFirst().orElseThrow();
        String moves = new ExtenderClient(managementPort).get("/debug/rescheduler").body();
        assertThat(moves).contains("\"pod\":\"shop/worker-2\",\"from\":\"node-1\",\"to\":\"" + planned + "\"");

        String allNodes = "[\"node-1\",\"node-2\",\"node-3\",\"node-4\"]";
        HttpResponse<String> steered = new ExtenderClient(port).post("/scheduler/filter",
                "{\"Pod\":" + workerReplacement(null) + ",\"NodeNames\":" + allNodes + "}");
        assertThat(Json.parse(steered.body()).get("NodeNames").toString()).isEqualTo("[\"" + planned + "\"]");
        HttpResponse<String> other = new ExtenderClient(port).post("/scheduler/filter",
                "{\"Pod\":{\"metadata\":{\"name\":\"batch-1\",\"namespace\":\"shop\",\"uid\":\"batch-1-uid\"},"
                        + "\"spec\":{\"priority\":0}},\"NodeNames\":" + allNodes + "}");
        assertThat(Json.parse(other.body()).get("FailedAndUnresolvableNodes").has(planned)).isTrue();

        admin.resource(Serialization.unmarshal(workerReplacement(planned), Pod.class)).create();
        Await.until("the landing closes as planned", CONVERGE, () -> new ExtenderClient(managementPort)
                .get("/actuator/prometheus").body()
                .contains("makeroom_rescheduler_landings_total{result=\"as_planned\"} 1.0"));
        assertThat(ReservationAnnotation.read(admin.nodes().withName(planned).get().getMetadata().getAnnotations()))
                .isEmpty();
        assertThat(new ExtenderClient(managementPort).get("/debug/rescheduler").body()).contains(
                "{\"moved\":\"shop/worker-2\",\"planned\":\"" + planned + "\",\"landed\":\"" + planned
                        + "\",\"result\":\"AS_PLANNED\"}");
        Await.until("the replacement is told where it landed", CONVERGE, () -> admin.v1().events().inNamespace("shop")
                .list().getItems().stream().anyMatch(e -> "Landed".equals(e.getReason())
                        && "worker-5b2d-x7k2p".equals(e.getInvolvedObject().getName())
                        && e.getMessage().equals("makeroom moved shop/worker-2; this replacement landed on " + planned
                        + " as planned")));
    }

    /** A new pod of worker-2's ReplicaSet, as its controller would make it (bound to {@code node}, or pending). */
    private static String workerReplacement(String node) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"worker-5b2d-x7k2p\","
                + "\"namespace\":\"shop\",\"uid\":\"worker-x7k2p-uid\",\"creationTimestamp\":\"" + Instant.now()
                .truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + "\",\"labels\":{\"app\":\"worker\"},"
                + "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"worker-5b2d\","
                + "\"uid\":\"worker-5b2d-uid\",\"controller\":true}]},\"spec\":{" + (node == null ? ""
                : "\"nodeName\":\"" + node + "\",") + "\"containers\":[{\"name\":\"main\",\"image\":\"example/worker\","
                + "\"resources\":{\"requests\":{\"cpu\":\"750m\",\"memory\":\"512Mi\"}}}]}}";
    }

    @Test
    void the_leader_evicts_what_it_planned_through_evictions_and_records_it() {
        Await.until("worker-2 is evicted", CONVERGE,
                () -> admin.pods().inNamespace("shop").withName("worker-2").get() == null);
        Await.until("the refusal of trainer-1's budget is reported", CONVERGE,
                () -> new ExtenderClient(managementPort).get("/debug/rescheduler").body().contains("BLOCKED_BY_BUDGET"));
        assertThat(admin.pods().inNamespace("ml").withName("trainer-1").get()).isNotNull();
        assertThat(API.podDeletes.get()).as("pods are evicted, never deleted").isZero();
        assertThat(admin.v1().events().inNamespace("shop").list().getItems())
                .anySatisfy(e -> assertThat(e.getReason()).isEqualTo("Rescheduled"));
        assertThat(AvoidPodsAnnotation.avoidedControllers(
                admin.nodes().withName("node-1").get().getMetadata().getAnnotations(), Instant.now()))
                .containsExactly("worker-5b2d-uid");
        // per controller and hour at most one: worker-1 (same ReplicaSet) stays although node-1 is the busiest
        assertThat(admin.pods().inNamespace("shop").withName("worker-1").get()).isNotNull();
        String state = new ExtenderClient(managementPort).get("/debug/rescheduler").body();
        assertThat(state).contains("\"leading\":true").contains("\"mode\":\"evict\"").doesNotContain("\"leader\":null");
        assertThat(API.evictions.get()).isEqualTo(1);
        Await.until("the eviction is counted", CONVERGE, () -> new ExtenderClient(managementPort).get("/actuator/prometheus")
                .body().contains("makeroom_rescheduler_evictions_total{policy=\"rebalance\",result=\"evicted\"} 1.0"));
    }

    @Test
    void the_dashboards_rescheduler_row_queries_what_makeroom_exposes() throws Exception {
        // the series exist at zero from the start: wait for a count, not for the name
        Await.until("a round that evicted is counted", CONVERGE, () -> new ExtenderClient(managementPort)
                .get("/actuator/prometheus").body().contains("result=\"evicted\"} 1.0"));
        String metrics = new ExtenderClient(managementPort).get("/actuator/prometheus").body();
        String dashboard = Files.readString(Path.of("helm/makeroom/dashboards/makeroom.json"));
        java.util.regex.Matcher used = java.util.regex.Pattern.compile("makeroom_rescheduler_[a-z_]+").matcher(dashboard);
        int found = 0;
        while (used.find()) {
            String name = used.group().replaceAll("_(sum|count)$", "_$1");
            assertThat(metrics).as(name).containsPattern("(?m)^" + name + "[{ ]");
            found++;
        }
        assertThat(found).isGreaterThanOrEqualTo(5);
        assertThat(metrics).contains("makeroom_rescheduler_skipped_total{category=\"no_controller\",policy=\"rebalance\"}");
    }
}
