package dev.makeroom.queueconfig;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.MockApiClients;
import dev.makeroom.support.Json;
import dev.makeroom.support.MutableClock;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queue rules through the real verbs, over a live view of fabric8's mock API server, with the
 * queue configuration in the makeroom-queues ConfigMap. Each scenario has its own queues, nodes
 * and pods (see queues/http-scenarios.yaml), so they share one cluster without touching.
 */
@EnableKubernetesMockClient(crud = true)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.source=kubernetes", "makeroom.cluster.config-map-namespace=makeroom-system"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class QueuesOverHttpTest {

    static final Instant START = Instant.parse("2026-11-22T12:00:00Z");
    static KubernetesClient client;

    @TestConfiguration
    static class Wiring {
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient() {
            return MockApiClients.clientFor(client);
        }

        @Bean
        @Primary
        MutableClock testClock() {
            return new MutableClock(START);
        }
    }

    @LocalServerPort
    int port;
    @LocalManagementPort
    int managementPort;
    @Autowired
    ClusterView view;
    @Autowired
    MutableClock clock;

    @BeforeAll
    static void createTheScenarios() throws IOException {
        client.resource(new ConfigMapBuilder().withNewMetadata().withName("makeroom-queues")
                .withNamespace("makeroom-system").endMetadata()
                .addToData("queues.yaml", Files.readString(Path.of("src/test/resources/queues/http-scenarios.yaml")))
                .build()).create();
        node("loop-n", 6);
        replicas("loop-n", "root.loop.prod", "prod-rs", 2);
        replicas("loop-n", "root.loop.test", "test-rs", 4);
        node("wait-n", 2);
        replicas("wait-n", "root.waiting.idle", "idle-rs", 2);
        node("fence-n", 2);
        client.resource(pod("b-pod", "root.tenant.b", "b-app", 1, "fence-n")).create();
        client.resource(pod("free-pod", "root.free", "free-app", 1, "fence-n")).create();
        node("app-n", 2);
        client.resource(pod("x-pod", "root.apps", "x", 1, "app-n")).create();
        client.resource(pod("y-pod", "root.apps", "y", 1, "app-n")).create();
        node("full-n", 1);
        client.resource(pod("full-pod", "root.full", "full-app", 1, "full-n")).create();
    }

    private ExtenderClient extender() {
        return new ExtenderClient(port);
    }

    private void awaitView(int pods) {
        Await.until("the view holds " + pods + " pods and the queues", Duration.ofSeconds(10),
                () -> view.ready() && view.snapshot().pods().size() == pods
                        && new ExtenderClient(managementPort).get("/debug/queues").body().contains("root.loop.prod"));
    }

    @Test
    @Order(1)
    void case1_through_http_prod_takes_one_test_pod_and_then_nobody_takes_anything() {
        awaitView(13);
        Pod prod = pod("prod-new-1", "root.loop.prod", "prod-rs", 1, null);
        List<String> victims = preempt(prod, "loop-n");
        assertThat(victims).singleElement().satisfies(v -> assertThat(v).startsWith("test-rs-"));

        // the scheduler and the ReplicaSet controller act: victim gone, prod pod bound, a new test pod pending
        client.pods().inNamespace("default").withName(victims.get(0)).delete();
        client.resource(pod("prod-new-1", "root.loop.prod", "prod-rs", 1, "loop-n")).create();
        client.resource(pod("test-rs-again", "root.loop.test", "test-rs", 1, null)).create();
        awaitView(14);

        assertThat(preempt(pod("test-rs-again", "root.loop.test", "test-rs", 1, null), "loop-n")).isEmpty();
        assertThat(preempt(pod("prod-new-2", "root.loop.prod", "prod-rs", 1, null), "loop-n")).isEmpty();
        JsonNode queues = Json.parse(new ExtenderClient(managementPort).get("/debug/queues").body());
        JsonNode loop = queues.get("root").get("children").get(0);
        assertThat(loop.get("children").get(0).get("usage").get("cpu").asLong()).isEqualTo(3000);
        assertThat(loop.get("children").get(1).get("usage").get("cpu").asLong()).isEqualTo(3000);
    }

    @Test
    @Order(2)
    void the_delay_holds_back_other_queues_until_the_pod_has_waited_it() {
        awaitView(view.snapshot().pods().size());
        Pod eager = new PodBuilder(pod("eager", "root.waiting.eager", "eager-app", 2, null))
                .editMetadata().withCreationTimestamp(clock.instant().toString()).endMetadata().build();
        assertThat(preempt(eager, "wait-n")).isEmpty();
        JsonNode decisions = Json.parse(new ExtenderClient(managementPort).get("/debug/decisions?pod=default/eager").body());
        assertThat(decisions.get(0).get("outcome").asString()).isEqualTo("DELAYED_BY_QUEUE");

        clock.advance(Duration.ofSeconds(30));
        assertThat(preempt(eager, "wait-n")).hasSize(2).allSatisfy(v -> assertThat(v).startsWith("idle-rs-"));
    }

    @Test
    @Order(3)
    void fences_keep_a_tenant_inside_and_are_one_way() {
        assertThat(preempt(pod("a-pod", "root.tenant.a", "a-app", 1, null), "fence-n")).containsExactly("b-pod");
        assertThat(preempt(pod("sys-pod", "root.system", "sys-app", 2, null), "fence-n"))
                .containsExactlyInAnyOrder("b-pod", "free-pod");
    }

    @Test
    @Order(4)
    void law3_and_law5_hold_through_http() {
        // law 3: x's own pod is not a victim, even at lower priority in the same queue
        assertThat(preempt(withPriority(pod("x-new", "root.apps", "x", 2, null), 10), "app-n")).isEmpty();
        assertThat(preempt(withPriority(pod("x-small", "root.apps", "x", 1, null), 10), "app-n")).containsExactly("y-pod");
        // law 5: root.full runs exactly its guarantee, so it gives nothing to a queue below its own
        assertThat(preempt(pod("apps-pod", "root.apps", "z", 1, null), "full-n")).isEmpty();
    }

    @Test
    @Order(5)
    void filter_fails_every_node_as_unresolvable_past_a_queues_max() {
        String body = "{\"Pod\":" + Serialization.asJson(pod("big", "root.capped", "big", 3, null))
                + ",\"NodeNames\":[\"loop-n\",\"wait-n\"]}";
        JsonNode answer = Json.parse(extender().post("/scheduler/filter", body).body());
        assertThat(answer.get("NodeNames")).isEmpty();
        assertThat(answer.get("FailedAndUnresolvableNodes").get("loop-n").asString())
                .contains("root.capped", "max cpu");
        assertThat(answer.get("FailedAndUnresolvableNodes").size()).isEqualTo(2);
    }

    @Test
    @Order(6)
    void a_bad_config_map_document_is_rejected_whole_and_the_last_good_tree_stays() {
        client.configMaps().inNamespace("makeroom-system").withName("makeroom-queues")
                .edit(cm -> new ConfigMapBuilder(cm).addToData("queues.yaml", "queues: [{name: root, queues: [{name: x, resources: {max: {cpu: lots}}}]}]").build());
        ExtenderClient management = new ExtenderClient(managementPort);
        Await.until("the rejection shows in the debug API", Duration.ofSeconds(10),
                () -> management.get("/debug/queues").body().contains("'lots' is not a quantity"));
        JsonNode state = Json.parse(management.get("/debug/queues").body());
        assertThat(state.get("root").get("children").get(0).get("name").asString()).isEqualTo("root.loop");
        assertThat(management.get("/actuator/prometheus").body())
                .containsPattern("makeroom_queue_config_reload_failures_total(\\{[^}]*\\})? 1\\.0");
        assertThat(management.get("/debug/queues/root.nowhere").statusCode()).isEqualTo(404);

        client.configMaps().inNamespace("makeroom-system").withName("makeroom-queues")
                .edit(cm -> new ConfigMapBuilder(cm).addToData("queues.yaml", "queues: [{name: root, queues: [{name: only}]}]").build());
        Await.until("the good document is in force", Duration.ofSeconds(10),
                () -> management.get("/debug/queues/root.only").statusCode() == 200);
        assertThat(Json.parse(management.get("/debug/queues").body()).get("error").isNull()).isTrue();
    }

    /** The victims' names the preempt verb answers for {@code pod} on {@code node}. */
    private List<String> preempt(Pod pod, String node) {
        String body = "{\"Pod\":" + Serialization.asJson(pod) + ",\"NodeNameToMetaVictims\":{\"" + node
                + "\":{\"Pods\":[],\"NumPDBViolations\":0}}}";
        var response = extender().post("/scheduler/preempt", body);
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode onNode = Json.parse(response.body()).get("NodeNameToMetaVictims").get(node);
        List<String> names = new ArrayList<>();
        if (onNode != null) {
            Map<String, String> byUid = new java.util.HashMap<>();
            view.snapshot().pods().forEach(p -> byUid.put(p.uid(), p.name()));
            onNode.get("Pods").forEach(p -> names.add(byUid.get(p.get("UID").asString())));
        }
        return names;
    }

    private static Pod withPriority(Pod pod, int priority) {
        return new PodBuilder(pod).editSpec().withPriority(priority).endSpec().build();
    }

    private static void node(String name, int cpus) {
        client.resource(new NodeBuilder().withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name)
                .endMetadata().withNewStatus().addToAllocatable("cpu", new Quantity(String.valueOf(cpus)))
                .addToAllocatable("pods", new Quantity("110")).endStatus().build()).create();
    }

    private static void replicas(String node, String queue, String app, int count) {
        for (int i = 0; i < count; i++) {
            client.resource(pod(app + "-" + i, queue, app, 1, node)).create();
        }
    }

    /** A pod of {@code app} in {@code queue} asking whole CPUs, bound to {@code node} or pending; created an hour before the test clock starts. */
    static Pod pod(String name, String queue, String app, int cpus, String node) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .withCreationTimestamp(START.minus(Duration.ofHours(1)).toString())
                .addToLabels("makeroom.dev/queue", queue).addToLabels("makeroom.dev/application", app).endMetadata()
                .withNewSpec().withNodeName(node).withPriority(0).addNewContainer().withName("c")
                .withNewResources().addToRequests("cpu", new Quantity(String.valueOf(cpus))).endResources()
                .endContainer().endSpec()
                .withNewStatus().withPhase(node == null ? "Pending" : "Running").endStatus().build();
    }
}
