package dev.makeroom.cluster;

import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.duplicates.DuplicatesPolicy;
import dev.makeroom.core.rounds.spread.SpreadPolicy;
import dev.makeroom.core.rounds.taints.TaintsPolicy;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.rescheduler.ReschedulerConfigService;
import dev.makeroom.rescheduler.ReschedulerMetrics;
import dev.makeroom.rescheduler.ReschedulerMode;
import dev.makeroom.rescheduler.RoundReport;
import dev.makeroom.support.Await;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The taints, spread and duplicates policies round after round against the CRUD mock API, with the
 * live view and the real Eviction client; each eviction carried out as the controller and scheduler
 * would (the pod goes, a replacement from the same template runs where the move expected). n1 (zone a)
 * holds three web replicas (zone spread, maxSkew 1) and the three cache replicas; n4 (zone b) the fourth
 * web replica; n2 (zone b) was tainted under report; n3 (zone c) joined empty. The rounds move report
 * off the taint, a web pod into zone c and the cache pile apart, refuse no eviction and come to rest
 * with every condition met.
 */
@EnableKubernetesMockClient(crud = true)
class PlacementPoliciesOverApiTest {

    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final String POLICIES = """
            policies:
              defragment: {enabled: false}
              taints: {enabled: true, keys: [dedicated]}
              spread: {enabled: true}
              duplicates: {enabled: true}
            limits: {perRound: 2, perNodePerRound: 1, perNamespacePerHour: 20, perControllerPerHour: 5, clusterPerHour: 20}
            """;

    KubernetesMockServer server;
    KubernetesClient client;
    private int created;

    private void cluster() {
        node("n1", "zone-a", false);
        node("n2", "zone-b", true);
        node("n3", "zone-c", false);
        node("n4", "zone-b", false);
        PodSpec web = new PodSpecBuilder().withTopologySpreadConstraints(new TopologySpreadConstraintBuilder()
                .withMaxSkew(1).withTopologyKey(ZONE).withWhenUnsatisfiable("DoNotSchedule")
                .withNewLabelSelector().withMatchLabels(Map.of("app", "web")).endLabelSelector().build()).build();
        pod("web-1", "web", "500m", "n1", web);
        pod("web-2", "web", "500m", "n1", web);
        pod("web-3", "web", "500m", "n1", web);
        pod("web-4", "web", "500m", "n4", web);
        for (int i = 1; i <= 3; i++) {
            pod("cache-" + i, "cache", "300m", "n1", new PodSpec());
        }
        pod("report-1", "report", "400m", "n2", new PodSpec());
    }

    private void node(String name, String zone, boolean tainted) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
                .withLabels(Map.of("kubernetes.io/hostname", name, ZONE, zone)).endMetadata()
                .withNewSpec().withTaints(tainted ? List.of(new TaintBuilder().withKey("dedicated").withValue("gpu")
                        .withEffect("NoSchedule").build()) : List.of()).endSpec()
                .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("4"), "pods", new Quantity("110")))
                .endStatus().build()).create();
    }

    /** A running pod of the app's ReplicaSet on the node, from the template {@code spec}; its eviction answered 201. */
    private void pod(String name, String app, String cpu, String node, PodSpec template) {
        PodSpec spec = new PodSpecBuilder(template).withNodeName(node).withContainers(List.of()).addNewContainer()
                .withName("c").withNewResources().withRequests(Map.of("cpu", new Quantity(cpu))).endResources()
                .endContainer().build();
        client.pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName(name)
                .withNamespace("shop").withUid(name + "-uid-" + (++created)).withLabels(Map.of("app", app))
                .withCreationTimestamp("2026-11-01T00:00:00Z").addNewOwnerReference().withApiVersion("apps/v1")
                .withKind("ReplicaSet").withName(app + "-rs").withUid(app + "-rs-uid").withController(true)
                .endOwnerReference().endMetadata().withSpec(spec).withNewStatus().withPhase("Running").endStatus().build())
                .create();
        server.expect().post().withPath("/api/v1/namespaces/shop/pods/" + name + "/eviction")
                .andReturn(201, new StatusBuilder().withCode(201).build()).always();
    }

    private Map<String, List<String>> layout() {
        Map<String, List<String>> out = new HashMap<>();
        for (Pod p : client.pods().inNamespace("shop").list().getItems()) {
            out.computeIfAbsent(p.getSpec().getNodeName(), n -> new ArrayList<>()).add(p.getMetadata().getLabels().get("app"));
        }
        return out;
    }

    private long count(String node, String app) {
        return layout().getOrDefault(node, List.of()).stream().filter(app::equals).count();
    }

    @Test
    void round_after_round_the_placements_are_fixed_with_every_landing_proven_and_the_rounds_rest() {
        cluster();
        try (ViewUnderTest replica = ViewUnderTest.watching(server);
             ApiEvictor api = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(), Duration.ofHours(1))) {
            Await.until("the view synced", Duration.ofSeconds(20), () -> replica.view.ready()
                    && replica.view.snapshot().pods().size() == 8);
            Rescheduler rescheduler = new Rescheduler(ReschedulerMode.EVICT, replica.view,
                    new ReschedulerConfigService(null, POLICIES, ConfigMapFeed.NONE, Clock.systemUTC()), api, api, api,
                    () -> true, Clock.systemUTC(), System::nanoTime, new ReschedulerMetrics(new SimpleMeterRegistry()),
                    PreemptionCheck.NEVER, List.of());
            List<ReschedulePolicy> policies = new ArrayList<>();
            RoundReport last = null;
            for (int round = 1; round <= 8; round++) {
                last = rescheduler.round();
                assertThat(last.moves()).allMatch(r -> r.result() == RoundReport.MoveOutcome.EVICTED); // none refused
                for (RoundReport.MoveResult moved : last.moves()) { // the controller and scheduler do their part
                    Pod gone = client.pods().inNamespace("shop").withName(moved.move().pod().name()).get();
                    client.pods().inNamespace("shop").withName(gone.getMetadata().getName()).delete();
                    pod(gone.getMetadata().getName() + "-r", gone.getMetadata().getLabels().get("app"),
                            gone.getSpec().getContainers().get(0).getResources().getRequests().get("cpu").toString(),
                            moved.move().to(), new PodSpecBuilder(gone.getSpec()).build());
                    policies.add(moved.move().policy());
                }
                Map<String, List<String>> now = layout();
                Await.until("the view follows round " + round, Duration.ofSeconds(20),
                        () -> replica.view.snapshot().pods().size() == 8 && replica.view.snapshot().nodes().stream()
                                .allMatch(n -> n.pods().size() == now.getOrDefault(n.name(), List.of()).size()));
                if (last.moves().isEmpty()) {
                    break;
                }
            }
            assertThat(last.moves()).as("the rounds come to rest").isEmpty();
            assertThat(policies).contains(TaintsPolicy.KIND, SpreadPolicy.KIND, DuplicatesPolicy.KIND);
            assertThat(count("n2", "report")).as("report left the taint").isZero();
            long a = count("n1", "web");
            long b = count("n2", "web") + count("n4", "web");
            long c = count("n3", "web");
            assertThat(Math.max(a, Math.max(b, c)) - Math.min(a, Math.min(b, c))).as("web's zone skew").isLessThanOrEqualTo(1);
            for (String node : List.of("n1", "n2", "n3", "n4")) {
                assertThat(count(node, "cache")).as("cache pods on %s", node).isLessThanOrEqualTo(1);
            }
        }
    }
}
