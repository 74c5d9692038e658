package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.support.Await;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/** The live view against fabric8's mock API server in CRUD mode: real lists and watches. */
@EnableKubernetesMockClient(crud = true)
class KubernetesClusterViewTest {

    private static final Duration FOLLOW = Duration.ofSeconds(2);

    static KubernetesClient client;

    private ViewUnderTest live;
    private KubernetesClusterView view;

    @BeforeEach
    void start() {
        client.resource(namespace("default")).create();
        client.resource(node("n1", "4")).create();
        live = ViewUnderTest.watching(client.getConfiguration());
        view = live.view;
        Await.until("the view has synced", Duration.ofSeconds(10), view::ready);
    }

    @AfterEach
    void stop() {
        if (live != null) {
            live.close();
        }
        // the mock server lives for the whole class: leave it empty for the next test
        client.pods().inAnyNamespace().delete();
        client.nodes().delete();
        client.policy().v1().podDisruptionBudget().inAnyNamespace().delete();
        client.configMaps().inAnyNamespace().delete();
        client.namespaces().delete();
    }

    private void awaitSnapshot(String what, Predicate<ClusterSnapshot> condition) {
        Await.until(what, FOLLOW, () -> condition.test(view.snapshot()));
    }

    static Namespace namespace(String name) {
        return new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build();
    }

    static Node node(String name, String cpu) {
        return new NodeBuilder().withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name).endMetadata()
                .withNewStatus().addToAllocatable("cpu", new Quantity(cpu)).addToAllocatable("pods", new Quantity("110"))
                .endStatus().build();
    }

    static Pod pod(String name, String node, String cpu) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name)
                .addToLabels("app", "web").endMetadata()
                .withNewSpec().withNodeName(node).withPriority(10).addNewContainer().withName("c")
                .withNewResources().addToRequests("cpu", new Quantity(cpu)).endResources().endContainer().endSpec()
                .withNewStatus().withPhase(node == null ? "Pending" : "Running").endStatus().build();
    }

    @Test
    void the_view_syncs_what_is_already_there() {
        assertThat(view.snapshot().node("n1").allocatable()).isEqualTo(Resources.of("cpu", 4000, "pods", 110));
        assertThat(view.snapshot().namespaceAnnotations()).containsKey("default");
    }

    @Test
    void pods_are_followed_from_creation_through_binding_to_deletion() {
        String uid = client.resource(pod("p1", null, "1")).create().getMetadata().getUid();
        awaitSnapshot("the pending pod is seen", s -> s.pod(uid) != null);
        assertThat(view.snapshot().node("n1").pods()).isEmpty();

        client.pods().inNamespace("default").withName("p1").edit(p -> new PodBuilder(p).editSpec().withNodeName("n1")
                .endSpec().build());
        awaitSnapshot("the pod is bound to n1", s -> s.node("n1").pods().size() == 1);
        assertThat(view.snapshot().node("n1").requested().get("cpu")).isEqualTo(1000);

        client.pods().inNamespace("default").withName("p1").delete();
        awaitSnapshot("the pod is gone", s -> s.pod(uid) == null && s.node("n1").pods().isEmpty());
    }

    @Test
    void a_terminating_pod_stays_on_its_node_until_deleted() {
        Pod pod = new PodBuilder(pod("p2", "n1", "1")).editMetadata().addToFinalizers("makeroom.dev/test-hold")
                .endMetadata().build();
        String uid = client.resource(pod).create().getMetadata().getUid();
        awaitSnapshot("the pod is on n1", s -> s.node("n1").pods().size() == 1);

        client.pods().inNamespace("default").withName("p2").delete();
        awaitSnapshot("the pod is terminating", s -> s.pod(uid).terminating());
        assertThat(view.snapshot().node("n1").pods()).hasSize(1);

        client.pods().inNamespace("default").withName("p2").edit(p -> new PodBuilder(p).editMetadata()
                .withFinalizers().endMetadata().build());
        awaitSnapshot("the pod is gone", s -> s.pod(uid) == null && s.node("n1").pods().isEmpty());
    }

    @Test
    void a_nominated_pod_is_tracked_on_its_node() {
        Pod pod = pod("waiting", null, "2");
        pod.getStatus().setNominatedNodeName("n1");
        client.resource(pod).create();

        awaitSnapshot("n1 lists the nominated pod", s -> s.node("n1").nominatedPods().size() == 1);
        assertThat(view.snapshot().node("n1").nominatedPods().get(0).name()).isEqualTo("waiting");
    }

    @Test
    void a_node_deleted_with_pods_on_it_leaves_the_view_and_its_pods_return_with_it() {
        client.resource(node("n2", "8")).create();
        String uid = client.resource(pod("p3", "n2", "1")).create().getMetadata().getUid();
        awaitSnapshot("n2 with its pod", s -> s.node("n2") != null && s.node("n2").pods().size() == 1);

        client.nodes().withName("n2").delete();
        awaitSnapshot("n2 is gone", s -> s.node("n2") == null);
        assertThat(view.snapshot().pod(uid)).isNotNull();

        client.resource(node("n2", "8")).create();
        awaitSnapshot("n2 is back with its pod", s -> s.node("n2") != null && s.node("n2").pods().size() == 1);
    }

    @Test
    void a_budgets_status_change_is_seen() {
        PodDisruptionBudget pdb = new PodDisruptionBudgetBuilder().withNewMetadata().withName("web").withNamespace("default")
                .endMetadata().withNewSpec().withNewSelector().addToMatchLabels("app", "web").endSelector().endSpec()
                .withNewStatus().withDisruptionsAllowed(0).withCurrentHealthy(1).withDesiredHealthy(1)
                .withExpectedPods(1).endStatus().build();
        client.resource(pdb).create();
        awaitSnapshot("the budget", s -> s.budgets().size() == 1 && s.budgets().get(0).disruptionsAllowed() == 0);

        client.policy().v1().podDisruptionBudget().inNamespace("default").withName("web")
                .edit(p -> new PodDisruptionBudgetBuilder(p).editStatus().withDisruptionsAllowed(2).endStatus().build());
        awaitSnapshot("the new allowance", s -> s.budgets().get(0).disruptionsAllowed() == 2);
    }

    @Test
    void a_kubelet_eviction_puts_the_controller_and_node_on_the_avoid_list() {
        Pod evicted = new PodBuilder(pod("victim", "n1", "1")).editMetadata().addNewOwnerReference()
                .withApiVersion("apps/v1").withKind("ReplicaSet").withName("web-abc").withUid("rs-1").withController(true)
                .endOwnerReference().endMetadata().editStatus().withPhase("Failed").withReason("Evicted").endStatus().build();
        String uid = client.resource(evicted).create().getMetadata().getUid();
        awaitSnapshot("the eviction has been applied", s -> s.pod(uid) == null);
        Await.until("the avoid list names n1 for the controller", FOLLOW, () -> view.recentEvictions().avoid(
                PodInfo.builder("replacement").controller(new OwnerRef("ReplicaSet", "web-abc", "rs-1")).build(), "n1"));

        PodInfo other = PodInfo.builder("other").controller(new OwnerRef("ReplicaSet", "api", "rs-2")).build();
        assertThat(view.recentEvictions().avoid(other, "n1")).isFalse();
    }

    @Test
    void makeroom_reads_its_own_config_map() {
        client.resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata().withName("makeroom-queues")
                .withNamespace("makeroom-system").endMetadata().addToData("queues.yaml", "queues: []").build()).create();
        Await.until("the config map data", FOLLOW, () -> Map.of("queues.yaml", "queues: []").equals(view.configData()));
    }
}
