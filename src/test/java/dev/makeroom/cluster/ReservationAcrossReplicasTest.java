package dev.makeroom.cluster;

import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.RoomPlan;
import dev.makeroom.core.rounds.defragment.DefragmentPolicy;
import dev.makeroom.mapping.ReservationAnnotation;
import dev.makeroom.support.Await;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Room held for a pending pod lives in the API: one replica's rescheduler writes it, every replica's
 * filter honours it through its own live view, and it ends for all when the pod binds or the hold is released.
 */
@EnableKubernetesMockClient(crud = true)
class ReservationAcrossReplicasTest {

    KubernetesMockServer server;
    KubernetesClient client;

    private static final FilterPolicy FILTER = new FilterPolicy();

    private void cluster() {
        for (String name : List.of("node-1", "node-2")) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                    .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("4"), "pods", new Quantity("110")))
                    .endStatus().build()).create();
        }
        client.pods().inNamespace("batch").resource(new PodBuilder().withNewMetadata().withName("report")
                .withNamespace("batch").endMetadata()
                .withNewSpec().withPriority(100).addNewContainer().withName("c").endContainer().endSpec().build()).create();
    }

    /** Whether the replica's filter keeps a pod of the pending pod's priority off node-1. */
    private static boolean keepsOthersOff(ViewUnderTest replica) {
        ClusterSnapshot snapshot = replica.view.snapshot();
        PodInfo other = PodInfo.builder("other").name("other").namespace("batch").priority(100)
                .requests(Resources.of("cpu", 100)).build();
        return FILTER.filter(snapshot, other, List.of("node-1", "node-2"), null, Instant.now()).unresolvable()
                .containsKey("node-1");
    }

    @Test
    void both_replicas_keep_others_off_the_held_node_until_the_pod_binds() {
        cluster();
        try (ViewUnderTest a = ViewUnderTest.watching(server); ViewUnderTest b = ViewUnderTest.watching(server);
             ApiEvictor evictor = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(), Duration.ofHours(1))) {
            Await.until("both views synced", Duration.ofSeconds(20), () -> a.view.ready() && b.view.ready());
            assertThat(keepsOthersOff(a)).isFalse();
            String uid = client.pods().inNamespace("batch").withName("report").get().getMetadata().getUid(); // the API's
            Reservation hold = new Reservation(new PodRef("batch", "report", uid), Instant.now().plusSeconds(120));
            assertThat(evictor.reserve("node-1", hold)).isTrue();
            Await.until("both replicas honour the hold", Duration.ofSeconds(20),
                    () -> keepsOthersOff(a) && keepsOthersOff(b));
            assertThat(b.view.snapshot().node("node-1").admission().reservations()).containsExactly(hold);

            client.pods().inNamespace("batch").withName("report").edit(p -> new PodBuilder(p).editSpec()
                    .withNodeName("node-2").endSpec().build());
            Await.until("the hold ends for both once the pod binds", Duration.ofSeconds(20),
                    () -> !keepsOthersOff(a) && !keepsOthersOff(b));

            evictor.release("node-1", uid);
            assertThat(client.nodes().withName("node-1").get().getMetadata().getAnnotations())
                    .doesNotContainKey(ReservationAnnotation.KEY);
        }
    }

    @Test
    void the_pending_pod_is_told_what_is_done_for_it() {
        cluster();
        try (ApiEvictor evictor = new ApiEvictor(MockApiClients.clientFor(client), Clock.systemUTC(), Duration.ofHours(1))) {
            PodInfo pending = PodInfo.builder("report-uid").name("report").namespace("batch").build();
            RoomPlan room = new RoomPlan(pending.ref(), "node-1", List.of(
                    new Move(new PodRef("shop", "web-1", "w"), "node-1", "node-2", DefragmentPolicy.KIND, "x"),
                    new Move(new PodRef("shop", "cache-1", "c"), "node-1", "node-2", DefragmentPolicy.KIND, "x")),
                    Instant.parse("2026-11-23T12:02:00Z"), true);
            evictor.announce(pending, room);
            List<Event> events = client.v1().events().inNamespace("batch").list().getItems();
            assertThat(events).singleElement().satisfies(e -> {
                assertThat(e.getReason()).isEqualTo("MakingRoom");
                assertThat(e.getInvolvedObject().getName()).isEqualTo("report");
                assertThat(e.getMessage()).isEqualTo("makeroom moves 2 pods off node node-1 to make room; the node is"
                        + " held for this pod until 2026-11-23T12:02:00Z");
            });
        }
    }
}
