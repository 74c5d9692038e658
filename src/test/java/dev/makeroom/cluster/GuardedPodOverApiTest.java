package dev.makeroom.cluster;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.rescheduler.ReschedulerConfigService;
import dev.makeroom.rescheduler.ReschedulerMetrics;
import dev.makeroom.rescheduler.ReschedulerMode;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.rescheduler.RoundReport;
import dev.makeroom.support.Await;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stall seen against a real cluster, replayed against the CRUD mock API with the live view and the
 * real Eviction client: node-1 holds a web Deployment and an api pod whose PodDisruptionBudget allows no
 * disruption; node-2 and node-3 are empty. Over several rounds (each eviction carried out as the
 * controller and scheduler would: the pod goes, its replacement runs where the move expected) the api
 * pod is never sent to the Eviction API, the web pods move, and node-1 falls below its threshold in the
 * first rounds without one refused eviction.
 */
@EnableKubernetesMockClient(crud = true)
class GuardedPodOverApiTest {

    private static final String POLICIES = """
            policies:
              rebalance: {enabled: true, low: {cpu: 40}, high: {cpu: 70}}
            limits: {perRound: 1, perNodePerRound: 1, perNamespacePerHour: 10, perControllerPerHour: 10, clusterPerHour: 10}
            """;

    KubernetesMockServer server;
    KubernetesClient client;

    private void cluster() {
        for (String name : List.of("node-1", "node-2", "node-3")) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                    .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("4"), "pods", new Quantity("110")))
                    .endStatus().build()).create();
        }
        pod("api-1", "api", "500m", 0, "node-1");
        for (int i = 1; i <= 3; i++) {
            pod("web-" + i, "web", "1", 100, "node-1");
        }
        client.policy().v1().podDisruptionBudget().inNamespace("shop").resource(new PodDisruptionBudgetBuilder()
                .withNewMetadata().withName("api").withNamespace("shop").endMetadata()
                .withNewSpec().withNewMinAvailable(1).withNewSelector().withMatchLabels(Map.of("app", "api"))
                .endSelector().endSpec().withNewStatus().withDisruptionsAllowed(0).withCurrentHealthy(1)
                .withDesiredHealthy(1).withExpectedPods(1).endStatus().build()).create();
    }

    private void pod(String name, String app, String cpu, int priority, String node) {
        client.pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName(name)
                .withNamespace("shop").withLabels(Map.of("app", app)).addNewOwnerReference().withApiVersion("apps/v1")
                .withKind("ReplicaSet").withName(app + "-rs").withUid(app + "-rs-uid").withController(true)
                .endOwnerReference().endMetadata().withNewSpec().withNodeName(node).withPriority(priority)
                .addNewContainer().withName("c").withNewResources().withRequests(Map.of("cpu", new Quantity(cpu)))
                .endResources().endContainer().endSpec().withNewStatus().withPhase("Running").endStatus().build())
                .create();
        // the eviction subresource: 201 for every pod, so a 429 could only come from makeroom asking for api-1
        server.expect().post().withPath("/api/v1/namespaces/shop/pods/" + name + "/eviction")
                .andReturn(name.startsWith("api") ? 429 : 201,
                        new StatusBuilder().withCode(name.startsWith("api") ? 429 : 201).build()).always();
    }

    private long cpuRequestedOn(String node) {
        return client.pods().inNamespace("shop").list().getItems().stream()
                .filter(p -> node.equals(p.getSpec().getNodeName()))
                .mapToLong(p -> new Quantity(p.getSpec().getContainers().get(0).getResources().getRequests().get("cpu")
                        .toString()).getNumericalAmount().multiply(java.math.BigDecimal.valueOf(1000)).longValue())
                .sum();
    }

    @Test
    void the_guarded_pod_is_never_sent_and_the_web_pods_move() {
        cluster();
        List<String> sent = new ArrayList<>();
        try (ViewUnderTest replica = ViewUnderTest.watching(server);
             ApiEvictor api = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(), Duration.ofHours(1))) {
            Evictor counting = new Evictor() {
                @Override
                public EvictionOutcome evict(PodInfo pod, Move move) {
                    sent.add(pod.name());
                    return api.evict(pod, move);
                }

                @Override
                public void expireAvoidances(String node) {
                    api.expireAvoidances(node);
                }
            };
            Await.until("the view synced", Duration.ofSeconds(20), () -> replica.view.ready()
                    && replica.view.snapshot().budgets().size() == 1 && replica.view.snapshot().pods().size() == 4);
            Rescheduler rescheduler = new Rescheduler(ReschedulerMode.EVICT, replica.view,
                    new ReschedulerConfigService(null, POLICIES, ConfigMapFeed.NONE, Clock.systemUTC()), counting,
                    api, api, () -> true, Clock.systemUTC(), System::nanoTime, new ReschedulerMetrics(new SimpleMeterRegistry()),
                    PreemptionCheck.NEVER, List.of());
            int roundsToThreshold = -1;
            for (int round = 1; round <= 6; round++) {
                RoundReport report = rescheduler.round();
                assertThat(report.moves()).allMatch(r -> r.result() == RoundReport.MoveOutcome.EVICTED); // none refused
                for (RoundReport.MoveResult moved : report.moves()) { // the controller and scheduler do their part
                    Pod gone = client.pods().inNamespace("shop").withName(moved.move().pod().name()).get();
                    client.pods().inNamespace("shop").withName(gone.getMetadata().getName()).delete();
                    pod(gone.getMetadata().getName() + "-r", "web", "1", 100, moved.move().to());
                }
                int expectedPods = 4;
                Await.until("the view follows round " + round, Duration.ofSeconds(20),
                        () -> replica.view.snapshot().pods().size() == expectedPods
                                && replica.view.snapshot().pods().stream().noneMatch(p -> p.terminating()));
                Await.until("the view has the replacements", Duration.ofSeconds(20), () -> cpuRequestedOn("node-1")
                        == replica.view.snapshot().node("node-1").requested().get("cpu"));
                if (roundsToThreshold < 0 && cpuRequestedOn("node-1") <= 2800) {
                    roundsToThreshold = round;
                }
            }
            assertThat(sent).doesNotContain("api-1").isNotEmpty();
            assertThat(roundsToThreshold).as("rounds until node-1 is at or below 70%% cpu").isBetween(1, 2);
            assertThat(rescheduler.rounds().get(0).skipped()).isEmpty(); // at rest: nothing over a threshold
        }
    }
}
