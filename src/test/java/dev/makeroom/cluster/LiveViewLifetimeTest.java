package dev.makeroom.cluster;

import dev.makeroom.mapping.PodGroupKind;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a live API shows over days, in seconds: resyncs every second, watches the server drops,
 * watches answered 410 Gone (a relist), objects deleted and recreated while no watch is up. After
 * each, the live view must equal a view built fresh from the API's objects, and the three verbs
 * must answer over real HTTP exactly as before wherever the API did not change.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.source=kubernetes", "makeroom.cluster.config-map-namespace=makeroom-system",
        "makeroom.cluster.resync=1s"})
class LiveViewLifetimeTest {

    private static final Duration CONVERGE = Duration.ofSeconds(20);
    private static final int WATCHES = FaultyApi.VIEW_WATCHES;
    private static final LiveViewSettings SETTINGS =
            new LiveViewSettings(Duration.ofSeconds(1), "makeroom-system", "makeroom-queues", Duration.ofMinutes(10));
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
    static void serveTheDemoCluster() {
        server = FaultyApi.serve(API);
        admin = FaultyApi.admin(server);
        for (HasMetadata object : new SnapshotFileLoader().load(Path.of("examples/demo-cluster.yaml"))) {
            admin.resource(object).create();
        }
        admin.resource(new ConfigMapBuilder().withNewMetadata().withName("makeroom-queues")
                .withNamespace("makeroom-system").endMetadata().addToData("queues.yaml", "queues: []").build()).create();
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

    @Autowired
    ClusterView clusterView;

    private KubernetesClusterView view;
    private VerbProbe verbs;

    @BeforeEach
    void theViewEqualsTheApi() throws IOException {
        view = (KubernetesClusterView) clusterView;
        verbs = new VerbProbe(port);
        Await.until("the view is ready", CONVERGE, view::ready);
        awaitEqualToTheApi();
        Await.until("every informer watches", CONVERGE, () -> API.openWatches() == WATCHES);
    }

    private void awaitEqualToTheApi() {
        ApiState.awaitEqual(admin, SETTINGS, view, CONVERGE);
    }

    private long unchanged() {
        return view.watchedKinds().stream().mapToLong(kind -> view.notifications(kind, "UNCHANGED")).sum();
    }

    @Test
    void resyncs_change_no_value_and_no_answer() {
        List<String> before = verbs.answers(view.snapshot());
        int objects = view.snapshot().nodes().size() + view.snapshot().pods().size();
        long start = unchanged();

        Await.until("three resyncs of every object", CONVERGE, () -> unchanged() - start >= 3L * objects);

        assertThat(ApiState.read(admin, SETTINGS).differences(view)).isEmpty();
        assertThat(verbs.answers(view.snapshot())).isEqualTo(before);
    }

    @Test
    void a_quiet_healthy_view_is_not_stale_and_says_what_its_notifications_meant() {
        long start = view.notifications("POD", "UNCHANGED");
        Await.until("a resync of the quiet cluster's pods", CONVERGE, () -> view.notifications("POD", "UNCHANGED") > start);

        String scrape = new ExtenderClient(managementPort).get("/actuator/prometheus").body();
        Matcher stale = Pattern.compile("(?m)^makeroom_informer_stale_seconds\\{.*kind=\"(\\w+)\".*} (\\S+)$").matcher(scrape);
        List<String> kinds = new java.util.ArrayList<>();
        while (stale.find()) {
            assertThat(Double.parseDouble(stale.group(2))).as(stale.group(1)).isLessThan(1.5);
            kinds.add(stale.group(1));
        }
        assertThat(kinds).containsExactlyInAnyOrder("node", "pod", "poddisruptionbudget", "priorityclass", "namespace",
                "configmap");
        // one spelling of a kind across makeroom's metrics
        for (String kind : List.of("node", "pod", "poddisruptionbudget", "priorityclass", "namespace")) {
            assertThat(scrape).contains("makeroom_cluster_objects{kind=\"" + kind + "\"}");
        }
        assertThat(scrape).containsPattern("(?m)^makeroom_informer_notifications_total\\{kind=\"pod\",outcome=\"unchanged\"} [1-9]");
        assertThat(scrape).containsPattern("(?m)^makeroom_informer_notifications_total\\{kind=\"node\",outcome=\"added\"} [1-9]");
    }

    @Test
    void a_dropped_watch_reconnects_and_misses_nothing() {
        List<String> before = verbs.answers(view.snapshot());
        int watchesBefore = API.watches.get();

        assertThat(API.dropWatches()).isEqualTo(WATCHES);
        Await.until("every informer watches again", CONVERGE, () -> API.watches.get() >= watchesBefore + WATCHES
                && API.openWatches() == WATCHES);
        assertThat(verbs.answers(view.snapshot())).isEqualTo(before);

        admin.resource(node("node-e", "8")).create();
        admin.resource(pod("late", "node-e", "1")).create();
        awaitEqualToTheApi();
        assertThat(view.snapshot().node("node-e").pods()).hasSize(1);

        admin.pods().inNamespace("default").withName("late").delete();
        admin.nodes().withName("node-e").delete();
        awaitEqualToTheApi();
        assertThat(verbs.answers(view.snapshot())).isEqualTo(before);
    }

    @Test
    void changes_made_while_no_watch_is_up_arrive_with_the_relist() {
        long replacedBefore = view.notifications("POD", "REPLACED");
        long deletedBefore = view.notifications("POD", "DELETED");
        int listsBefore = API.lists.get();
        // the watches go, the rewatch is told 410 Gone and the relist fails for a while: a real outage
        API.failingLists.set(1_000_000);
        API.goneOnNextWatches.set(WATCHES);
        API.dropWatches();
        // the six kinds' informers rewatch, are told 410 and relist; the PodGroup informers may relist at once
        Await.until("every informer has been told 410 and tried to relist", CONVERGE,
                () -> API.goneOnNextWatches.get() <= PodGroupKind.values().length
                        && API.lists.get() >= listsBefore + WATCHES);
        API.goneOnNextWatches.set(0);

        Pod batchSmall = admin.pods().inNamespace("default").withName("batch-small-1").get();
        admin.resource(batchSmall).delete();
        Await.until("the pod is gone from the API", CONVERGE,
                () -> admin.pods().inNamespace("default").withName("batch-small-1").get() == null);
        admin.resource(new PodBuilder(batchSmall).editMetadata().withUid(null).withResourceVersion(null).endMetadata()
                .editSpec().withNodeName("node-d").endSpec().build()).create();
        admin.pods().inNamespace("default").withName("debug-shell").delete();
        admin.nodes().withName("node-d").edit(n -> new NodeBuilder(n).editStatus()
                .addToAllocatable("cpu", new Quantity("6")).endStatus().build());
        admin.policy().v1().podDisruptionBudget().inNamespace("shop").withName("web").edit(p ->
                new PodDisruptionBudgetBuilder(p).editStatus().withDisruptionsAllowed(1).endStatus().build());
        admin.scheduling().v1().priorityClasses().withName("batch-low").delete();
        admin.configMaps().inNamespace("makeroom-system").withName("makeroom-queues").delete();
        assertThat(ApiState.read(admin, SETTINGS).differences(view)).as("the view cannot know yet").isNotEmpty();

        API.failingLists.set(0);
        awaitEqualToTheApi();
        assertThat(view.notifications("POD", "REPLACED") - replacedBefore).as("batch-small-1 recreated").isEqualTo(1);
        assertThat(view.notifications("POD", "DELETED") - deletedBefore).as("debug-shell, deleted unseen").isEqualTo(1);
        assertThat(view.snapshot().node("node-d").allocatable().get("cpu")).isEqualTo(6000);
    }

    static io.fabric8.kubernetes.api.model.Node node(String name, String cpu) {
        return KubernetesClusterViewTest.node(name, cpu);
    }

    static Pod pod(String name, String node, String cpu) {
        return KubernetesClusterViewTest.pod(name, node, cpu);
    }
}
