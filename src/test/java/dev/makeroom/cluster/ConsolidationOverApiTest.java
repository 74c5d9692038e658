package dev.makeroom.cluster;

import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.rounds.NodeDrain;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.rescheduler.ReschedulerConfigService;
import dev.makeroom.rescheduler.ReschedulerMetrics;
import dev.makeroom.rescheduler.ReschedulerMode;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.rescheduler.RoundReport;
import dev.makeroom.support.Await;
import dev.makeroom.support.MockApiClients;
import dev.makeroom.support.MutableClock;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The consolidate policy round after round against the CRUD mock API, with the live view and the real
 * Eviction client; each eviction carried out as the controller and scheduler would (a replacement runs
 * where the move expected). n1 holds web and batch (20% of its cpu) and a DaemonSet's agent; n2 and n3
 * are at 50%. With one eviction per node a round, n1 is tainted, emptied over two rounds, kept tainted
 * with only the agent left, and untainted once {@code keepEmptyFor} passes with the node still there; an
 * eviction the API refuses instead untaints it in the same round.
 */
@EnableKubernetesMockClient(crud = true)
class ConsolidationOverApiTest {

    private static final String POLICIES = """
            policies:
              defragment: {enabled: false}
              consolidate: {enabled: true, below: {cpu: 30}, ceiling: {cpu: 75}}
            limits: {perRound: 5, perNodePerRound: 1, perNamespacePerHour: 20, perControllerPerHour: 5, clusterPerHour: 20}
            """;

    KubernetesMockServer server;
    KubernetesClient client;
    private int created;
    private final MutableClock clock = new MutableClock(Instant.now());

    private void cluster(int batchEviction) {
        for (String name : List.of("n1", "n2", "n3")) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
                    .withLabels(Map.of("kubernetes.io/hostname", name)).endMetadata().withNewSpec().endSpec()
                    .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("4"), "pods", new Quantity("110")))
                    .endStatus().build()).create();
        }
        pod("base-a", "base", "ReplicaSet", "2", "n2", 201);
        pod("base-b", "base", "ReplicaSet", "2", "n3", 201);
        pod("web-1", "web", "ReplicaSet", "500m", "n1", 201);
        pod("batch-1", "batch", "ReplicaSet", "300m", "n1", batchEviction);
        pod("agent-n1", "agent", "DaemonSet", "100m", "n1", 201);
    }

    /** A running pod of the app's controller on the node; its eviction answered {@code eviction}. */
    private void pod(String name, String app, String kind, String cpu, String node, int eviction) {
        pod(name, Map.of("app", app), kind, cpu, node, eviction);
    }

    private void pod(String name, Map<String, String> labels, String kind, String cpu, String node, int eviction) {
        String app = labels.get("app");
        client.pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName(name)
                .withNamespace("shop").withUid(name + "-uid-" + (++created)).withLabels(labels)
                .withCreationTimestamp("2026-11-01T00:00:00Z").addNewOwnerReference().withApiVersion("apps/v1")
                .withKind(kind).withName(app + "-owner").withUid(app + "-owner-uid").withController(true)
                .endOwnerReference().endMetadata().withSpec(new PodSpecBuilder().withNodeName(node).addNewContainer()
                        .withName("c").withNewResources().withRequests(Map.of("cpu", new Quantity(cpu))).endResources()
                        .endContainer().build()).withNewStatus().withPhase("Running").endStatus().build()).create();
        server.expect().post().withPath("/api/v1/namespaces/shop/pods/" + name + "/eviction")
                .andReturn(eviction, new StatusBuilder().withCode(eviction).build()).always();
    }

    private List<String> taintKeys(String node) {
        List<Taint> taints = client.nodes().withName(node).get().getSpec().getTaints();
        return taints == null ? List.of() : taints.stream().map(Taint::getKey).toList();
    }

    private List<String> podsOn(String node) {
        return client.pods().inNamespace("shop").list().getItems().stream()
                .filter(p -> node.equals(p.getSpec().getNodeName())).map(p -> p.getMetadata().getName()).sorted().toList();
    }

    /** A rescheduler over {@code replica} once its view holds {@link #cluster}'s five pods. */
    private Rescheduler synced(ViewUnderTest replica, ApiEvictor api) {
        Await.until("the view synced", Duration.ofSeconds(20), () -> replica.view.ready()
                && replica.view.snapshot().pods().size() == 5);
        return rescheduler(replica, api);
    }

    private Rescheduler rescheduler(ViewUnderTest replica, ApiEvictor api) {
        return rescheduler(replica, api, POLICIES);
    }

    private Rescheduler rescheduler(ViewUnderTest replica, ApiEvictor api, String policies) {
        return new Rescheduler(ReschedulerMode.EVICT, replica.view,
                new ReschedulerConfigService(null, policies, ConfigMapFeed.NONE, clock), api, api, api,
                () -> true, clock, System::nanoTime, new ReschedulerMetrics(new SimpleMeterRegistry()),
                PreemptionCheck.NEVER, List.of());
    }

    /** The controller and scheduler's part: each evicted pod goes, and its replacement runs where makeroom expected. */
    private void carryOut(RoundReport round, ViewUnderTest replica) {
        for (RoundReport.MoveResult moved : round.moves()) {
            if (moved.result() != RoundReport.MoveOutcome.EVICTED) {
                continue;
            }
            Pod gone = client.pods().inNamespace("shop").withName(moved.move().pod().name()).get();
            client.pods().inNamespace("shop").withName(gone.getMetadata().getName()).delete();
            pod(gone.getMetadata().getName() + "-r", gone.getMetadata().getLabels().get("app"), "ReplicaSet",
                    gone.getSpec().getContainers().get(0).getResources().getRequests().get("cpu").toString(),
                    moved.move().to(), 201);
        }
        int pods = client.pods().inNamespace("shop").list().getItems().size();
        List<String> keys = taintKeys("n1");
        Await.until("the view follows the round", Duration.ofSeconds(20), () -> {
            var snapshot = replica.view.snapshot();
            return snapshot.pods().size() == pods && snapshot.node("n1").admission().taints().stream()
                    .map(dev.makeroom.core.model.Taint::key).toList().equals(keys)
                    && snapshot.node("n1").pods().size() == podsOn("n1").size();
        });
    }

    /** Three rounds on {@link #cluster}: n1 is tainted, emptied one pod a round, then marked empty and kept. */
    private RoundReport emptyN1(Rescheduler rescheduler, ViewUnderTest replica) {
        RoundReport first = rescheduler.round();
        assertThat(first.drains()).extracting(RoundReport.DrainResult::result)
                .containsExactly(RoundReport.DrainOutcome.STARTED);
        assertThat(first.moves()).extracting(m -> m.move().pod().name() + " " + m.result())
                .containsExactly("web-1 EVICTED"); // one a node a round: batch waits
        assertThat(taintKeys("n1")).containsExactly(ConsolidationMark.TAINT_KEY);
        carryOut(first, replica);

        RoundReport second = rescheduler.round();
        assertThat(second.drains()).extracting(RoundReport.DrainResult::result)
                .containsExactly(RoundReport.DrainOutcome.CONTINUED);
        assertThat(second.moves()).extracting(m -> m.move().pod().name() + " " + m.result())
                .containsExactly("batch-1 EVICTED");
        carryOut(second, replica);

        RoundReport third = rescheduler.round();
        assertThat(third.drains()).extracting(RoundReport.DrainResult::result)
                .containsExactly(RoundReport.DrainOutcome.EMPTIED);
        assertThat(taintKeys("n1")).as("kept tainted for the autoscaler").containsExactly(ConsolidationMark.TAINT_KEY);
        assertThat(client.nodes().withName("n1").get().getSpec().getTaints().get(0).getValue()).startsWith("empty.");
        assertThat(podsOn("n1")).containsExactly("agent-n1");
        carryOut(third, replica);
        return third;
    }

    /**
     * n1 kept empty: a pod the scheduler found no node for, that would fit there and on no other node,
     * brings it back into service at once, and is told so.
     */
    @Test
    void a_node_kept_empty_goes_back_into_service_for_a_pod_waiting_for_it() {
        cluster(201);
        try (ViewUnderTest replica = ViewUnderTest.watching(server);
             ApiEvictor api = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(), Duration.ofHours(1))) {
            Rescheduler rescheduler = synced(replica, api);
            emptyN1(rescheduler, replica);
            client.pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName("big")
                    .withNamespace("shop").withUid("big-uid").endMetadata().withSpec(new PodSpecBuilder()
                            .addNewContainer().withName("c").withNewResources()
                            .withRequests(Map.of("cpu", new Quantity("3500m"))).endResources().endContainer().build())
                    .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
                    .withReason("Unschedulable").withLastTransitionTime(Instant.now().toString()).endCondition()
                    .endStatus().build()).create();
            Await.until("the view sees big waiting", Duration.ofSeconds(20), () -> replica.view.snapshot().pods()
                    .stream().anyMatch(p -> p.name().equals("big") && p.unschedulableSince() != null));

            RoundReport yielded = rescheduler.round();
            assertThat(yielded.drains()).singleElement().satisfies(d -> {
                assertThat(d.result()).isEqualTo(RoundReport.DrainOutcome.RELEASED);
                assertThat(d.drain().reason()).startsWith("shop/big waits for a node and fits on this one alone");
            });
            assertThat(taintKeys("n1")).as("back in service").isEmpty();
            assertThat(client.v1().events().inNamespace("shop").list().getItems()).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("NodeReleased");
                assertThat(e.getInvolvedObject().getName()).isEqualTo("big");
                assertThat(e.getMessage()).contains("node n1 back into service");
            });
        }
    }

    @Test
    void the_least_used_node_is_tainted_emptied_over_rounds_and_untainted_for_the_autoscaler() {
        cluster(201);
        try (ViewUnderTest replica = ViewUnderTest.watching(server);
             ApiEvictor api = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(), Duration.ofHours(1))) {
            Rescheduler rescheduler = synced(replica, api);
            assertThat(rescheduler.planNow().drains()).extracting(d -> d.drain().step())
                    .containsExactly(NodeDrain.Step.START);
            assertThat(taintKeys("n1")).as("a dry run taints nothing").isEmpty();

            RoundReport third = emptyN1(rescheduler, replica);
            assertThat(third.drains().get(0).detail()).endsWith("emptied with 2 evictions (as this replica counted them)");

            RoundReport kept = rescheduler.round();
            assertThat(kept.moves()).isEmpty();
            assertThat(kept.drains()).as("n2 and n3 are above the threshold; n1 is kept empty").isEmpty();

            clock.advance(Duration.ofMinutes(10)); // keepEmptyFor, and no autoscaler removed n1
            RoundReport released = rescheduler.round();
            assertThat(released.drains()).extracting(RoundReport.DrainResult::result)
                    .containsExactly(RoundReport.DrainOutcome.RELEASED);
            assertThat(taintKeys("n1")).as("back in service").isEmpty();
            for (String node : List.of("n2", "n3")) {
                double cpu = client.pods().inNamespace("shop").list().getItems().stream()
                        .filter(p -> node.equals(p.getSpec().getNodeName()))
                        .mapToDouble(p -> Quantity.getAmountInBytes(p.getSpec().getContainers().get(0).getResources()
                                .getRequests().get("cpu")).doubleValue()).sum();
                assertThat(cpu / 4).as("%s stays at or under the ceiling", node).isLessThanOrEqualTo(0.75);
            }
        }
    }

    @Test
    void an_eviction_the_api_refuses_abandons_the_drain_and_untaints_the_node_at_once() {
        cluster(429);
        try (ViewUnderTest replica = ViewUnderTest.watching(server);
             ApiEvictor api = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(), Duration.ofHours(1))) {
            Rescheduler rescheduler = synced(replica, api);
            RoundReport first = rescheduler.round();
            carryOut(first, replica);
            RoundReport second = rescheduler.round();
            assertThat(second.moves()).extracting(m -> m.move().pod().name() + " " + m.result())
                    .containsExactly("batch-1 BLOCKED_BY_BUDGET");
            assertThat(second.drains()).singleElement().satisfies(d -> {
                assertThat(d.result()).isEqualTo(RoundReport.DrainOutcome.ABANDONED);
                assertThat(d.detail()).contains("batch-1");
            });
            assertThat(taintKeys("n1")).as("untainted in the round of the refusal").isEmpty();
            carryOut(second, replica);
            RoundReport third = rescheduler.round();
            assertThat(third.drains()).as("n1 is held back after it was abandoned").isEmpty();
            assertThat(third.moves()).isEmpty();
        }
    }

    /**
     * n1 holds web-1 and worker-0 of gang train, whose worker-1 runs on n2; moveWholeGangs on. The
     * gang's members go in the drain's first round, both, or neither: when the API would refuse
     * worker-1 (asked as a dry run before the first member's eviction), no member is evicted and the
     * drain is abandoned.
     */
    private void gangCluster(int worker1Eviction) {
        cluster(201);
        Map<String, String> train = Map.of("app", "train", "scheduling.x-k8s.io/pod-group", "train");
        pod("worker-0", train, "Job", "200m", "n1", 201);
        pod("worker-1", train, "Job", "200m", "n2", worker1Eviction);
    }

    private static final String WHOLE_GANGS = POLICIES.replace("ceiling: {cpu: 75}}",
            "ceiling: {cpu: 75}, moveWholeGangs: true}").replace("perNodePerRound: 1", "perNodePerRound: 5");

    private RoundReport firstGangRound(ViewUnderTest replica, ApiEvictor api) {
        Await.until("the view synced", Duration.ofSeconds(20), () -> replica.view.ready()
                && replica.view.snapshot().pods().size() == 7);
        return rescheduler(replica, api, WHOLE_GANGS).round();
    }

    @Test
    void a_gang_moving_whole_is_evicted_in_one_round_members_on_other_nodes_too() {
        gangCluster(201);
        try (ViewUnderTest replica = ViewUnderTest.watching(server);
             ApiEvictor api = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(), Duration.ofHours(1))) {
            RoundReport round = firstGangRound(replica, api);
            assertThat(round.drains()).extracting(RoundReport.DrainResult::result)
                    .containsExactly(RoundReport.DrainOutcome.STARTED);
            assertThat(round.moves()).extracting(m -> m.move().pod().name() + " " + m.result())
                    .containsExactlyInAnyOrder("web-1 EVICTED", "batch-1 EVICTED", "worker-0 EVICTED", "worker-1 EVICTED");
            assertThat(round.moves()).filteredOn(m -> m.move().pod().name().equals("worker-1"))
                    .singleElement().satisfies(m -> assertThat(m.move().from()).isEqualTo("n2"));
        }
    }

    @Test
    void when_the_api_would_refuse_one_member_no_member_of_the_gang_is_evicted() {
        gangCluster(429);
        try (ViewUnderTest replica = ViewUnderTest.watching(server);
             ApiEvictor api = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(), Duration.ofHours(1))) {
            RoundReport round = firstGangRound(replica, api);
            assertThat(round.moves()).filteredOn(m -> m.move().pod().name().startsWith("worker-"))
                    .hasSize(2).allSatisfy(m -> {
                        assertThat(m.result()).isEqualTo(RoundReport.MoveOutcome.NOT_TRIED);
                        assertThat(m.detail()).contains("its gang moves whole, and the API would not evict shop/worker-1");
                    });
            assertThat(round.drains()).singleElement().satisfies(d ->
                    assertThat(d.result()).isEqualTo(RoundReport.DrainOutcome.ABANDONED));
            assertThat(taintKeys("n1")).as("untainted in the round of the refusal").isEmpty();
            assertThat(podsOn("n1")).contains("worker-0");
            assertThat(podsOn("n2")).contains("worker-1");
        }
    }
}
