package dev.makeroom.cluster;

import dev.makeroom.core.model.PodRef;
import dev.makeroom.support.Await;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@EnableKubernetesMockClient(crud = true)
class PreemptionEventsTest {

    KubernetesMockServer server;
    KubernetesClient client;

    private static final PodRef POD = new PodRef("team", "big", "uid-big");

    private List<Event> events() {
        return client.v1().events().inNamespace("team").list().getItems();
    }

    @Test
    void a_decision_is_told_on_the_preemptor_once_however_often_the_pod_retries() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-23T12:00:00Z"), ZoneOffset.UTC);
        try (PreemptionEvents events = new PreemptionEvents(MockApiClients.clientFor(client), clock,
                Duration.ofMinutes(10), 10)) {
            for (int retry = 0; retry < 5; retry++) {
                events.record(POD, "makeroom chose node n1: evict team/a; 1 victim where the scheduler's heuristic chose 2 (on n2)");
            }
            Await.until("the Event is written", Duration.ofSeconds(10), () -> !events().isEmpty());
            events.record(POD, "makeroom chose node n3: evict team/c"); // a new decision is news
            // written in order on one thread: once the second is there, any repeat of the first would be too
            Await.until("the second Event is written", Duration.ofSeconds(10), () -> events().stream()
                    .anyMatch(e -> e.getMessage().equals("makeroom chose node n3: evict team/c")));
            assertThat(events()).hasSize(2);
            assertThat(events()).extracting(Event::getReason).containsOnly(PreemptionEvents.REASON);
            assertThat(events()).extracting(e -> e.getInvolvedObject().getUid()).containsOnly("uid-big");
            assertThat(events()).extracting(Event::getMessage).contains(
                    "makeroom chose node n1: evict team/a; 1 victim where the scheduler's heuristic chose 2 (on n2)");
        }
    }

    @Test
    void beyond_the_rate_events_are_dropped_and_counted_not_queued_without_end() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-23T12:00:00Z"), ZoneOffset.UTC); // one second, all along
        try (PreemptionEvents events = new PreemptionEvents(MockApiClients.clientFor(client), clock,
                Duration.ofMinutes(10), 3)) {
            for (int pod = 0; pod < 10; pod++) {
                events.record(new PodRef("team", "p" + pod, "uid-" + pod), "decided");
            }
            assertThat(events.dropped()).isEqualTo(7);
            Await.until("the three Events are written", Duration.ofSeconds(10), () -> events().size() == 3);
        }
    }

    @Test
    void switched_off_it_writes_nothing() {
        PreemptionEvents off = PreemptionEvents.off();
        off.record(POD, "decided");
        assertThat(off.enabled()).isFalse();
        assertThat(events()).isEmpty();
    }
}
