package dev.makeroom.cluster;

import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.rounds.Evictor.EvictionOutcome.Result;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.rebalance.RebalancePolicy;
import dev.makeroom.mapping.AvoidPodsAnnotation;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

@EnableKubernetesMockClient(crud = true)
class ApiEvictorTest {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final OwnerRef WEB = new OwnerRef("ReplicaSet", "web-5d9", "rs-uid-1");

    KubernetesMockServer server;
    KubernetesClient client;

    private ApiEvictor evictor;
    private final PodInfo pod = PodInfo.builder("uid-1").namespace("shop").name("web-1").nodeName("hot")
            .controller(WEB).build();
    private final Move move = new Move(new PodRef("shop", "web-1", "uid-1"), "hot", "cold", RebalancePolicy.KIND,
            "above cpu 70%");

    @BeforeEach
    void cluster() {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("hot").endMetadata().build()).create();
        client.pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName("web-1")
                .withNamespace("shop").withUid("uid-1").endMetadata().build()).create();
        evictor = new ApiEvictor(MockApiClients.clientFor(client), Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofHours(1));
    }

    private void answerEviction(int code) {
        server.expect().post().withPath("/api/v1/namespaces/shop/pods/web-1/eviction")
                .andReturn(code, new StatusBuilder().withCode(code).withMessage("said " + code).build()).once();
    }

    @Test
    void an_eviction_goes_through_the_eviction_subresource_and_leaves_an_event_and_an_avoid_entry() throws Exception {
        answerEviction(201);
        assertThat(evictor.evict(pod, move).result()).isEqualTo(Result.EVICTED);
        assertThat(requests()).anyMatch(r -> r.getMethod().equals("POST")
                && r.getPath().equals("/api/v1/namespaces/shop/pods/web-1/eviction")
                && r.getUtf8Body().contains("\"kind\":\"Eviction\""));
        assertThat(requests()).noneMatch(r -> r.getMethod().equals("DELETE"));
        List<Event> events = client.v1().events().inNamespace("shop").list().getItems();
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.getReason()).isEqualTo("Rescheduled");
            assertThat(e.getInvolvedObject().getName()).isEqualTo("web-1");
            assertThat(e.getMessage()).contains("above cpu 70%").contains("expected to land on cold");
        });
        Map<String, String> annotations = client.nodes().withName("hot").get().getMetadata().getAnnotations();
        assertThat(AvoidPodsAnnotation.avoidedControllers(annotations, NOW.plusSeconds(60))).containsExactly("rs-uid-1");
        assertThat(AvoidPodsAnnotation.avoidedControllers(annotations, NOW.plus(Duration.ofHours(2)))).isEmpty();
    }

    @Test
    void a_budget_saying_no_is_reported_and_nothing_is_recorded() {
        answerEviction(429);
        assertThat(evictor.evict(pod, move).result()).isEqualTo(Result.BLOCKED_BY_BUDGET);
        assertThat(client.v1().events().inNamespace("shop").list().getItems()).isEmpty();
        assertThat(client.nodes().withName("hot").get().getMetadata().getAnnotations()).isNullOrEmpty();
    }

    @Test
    void a_pod_already_gone_and_other_errors_are_told_apart() {
        answerEviction(404);
        assertThat(evictor.evict(pod, move).result()).isEqualTo(Result.GONE);
        answerEviction(500);
        assertThat(evictor.evict(pod, move).result()).isEqualTo(Result.FAILED);
    }

    private List<RecordedRequest> requests() throws InterruptedException {
        List<RecordedRequest> all = new java.util.ArrayList<>();
        for (int i = server.getRequestCount(); i > 0; i--) {
            RecordedRequest r = server.takeRequest(1, java.util.concurrent.TimeUnit.SECONDS);
            if (r != null) {
                all.add(r);
            }
        }
        return all;
    }
}
