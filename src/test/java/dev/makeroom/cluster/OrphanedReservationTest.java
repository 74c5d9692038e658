package dev.makeroom.cluster;

import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.mapping.ReservationAnnotation;
import dev.makeroom.rescheduler.ReschedulerConfigService;
import dev.makeroom.rescheduler.ReschedulerMetrics;
import dev.makeroom.rescheduler.ReschedulerMode;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.support.Await;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
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
 * A replica killed after reserving a node for a pending pod, before its evictions: the hold stays in
 * the node's annotation, expires, and the next leader's first round removes it, so no node is kept
 * from other pods by a plan nobody carries out.
 */
@EnableKubernetesMockClient(crud = true)
class OrphanedReservationTest {

    KubernetesMockServer server;
    KubernetesClient client;

    @Test
    void the_next_leader_removes_a_hold_that_has_run_out() {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
                .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("4"), "pods", new Quantity("110")))
                .endStatus().build()).create();
        client.pods().inNamespace("batch").resource(new PodBuilder().withNewMetadata().withName("report")
                .withNamespace("batch").endMetadata().withNewSpec().withPriority(100).addNewContainer().withName("c")
                .endContainer().endSpec().build()).create();
        String uid = client.pods().inNamespace("batch").withName("report").get().getMetadata().getUid();
        try (ApiEvictor killedReplica = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(),
                Duration.ofHours(1))) {
            assertThat(killedReplica.reserve("node-1", new Reservation(new PodRef("batch", "report", uid),
                    Instant.now().minusSeconds(1)))).isTrue(); // it ran out while nobody led
        }
        try (ViewUnderTest replica = ViewUnderTest.watching(server);
             ApiEvictor api = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(), Duration.ofHours(1))) {
            Await.until("the new leader's view has the hold", Duration.ofSeconds(20), () -> replica.view.ready()
                    && replica.view.snapshot().node("node-1") != null
                    && !replica.view.snapshot().node("node-1").admission().reservations().isEmpty());
            Rescheduler nextLeader = new Rescheduler(ReschedulerMode.EVICT, replica.view,
                    new ReschedulerConfigService(null, "policies: {defragment: {enabled: false}}", ConfigMapFeed.NONE,
                            Clock.systemUTC()), api, api, api, () -> true, Clock.systemUTC(), System::nanoTime,
                    new ReschedulerMetrics(new SimpleMeterRegistry()), PreemptionCheck.NEVER, List.of());
            nextLeader.round();
            assertThat(client.nodes().withName("node-1").get().getMetadata().getAnnotations())
                    .doesNotContainKey(ReservationAnnotation.KEY);
        }
    }
}
