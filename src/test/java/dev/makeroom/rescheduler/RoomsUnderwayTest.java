package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.cluster.ConfigMapFeed;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.RoomHold;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.core.rounds.RoomPlan;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** A round that makes room for a pending pod, enacted: the hold comes first, and a room is all or, when it fails, told. */
class RoomsUnderwayTest {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final String GENEROUS = "limits: {perRound: 10, perNodePerRound: 5, perNamespacePerHour: 10,"
            + " perControllerPerHour: 10, clusterPerHour: 10}";

    /** Two nodes of 4 cpus: one runs two 1-cpu pods, the other one 2-cpu pod that may not move; a 4-cpu pod waits. */
    private static ClusterSnapshot crowded(NodeAdmission secondAdmission) {
        return ClusterSnapshot.builder()
                .node("node-1", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .node("node-2", Map.of(), Resources.of("cpu", 4000, "pods", 10), secondAdmission)
                .pod(running("a", "node-1", 1000, 0)).pod(running("b", "node-1", 1000, 0))
                .pod(running("fixed", "node-2", 2000, 1000))
                .pod(PodInfo.builder("report").name("report").namespace("batch").requests(Resources.of("cpu", 4000))
                        .unschedulableSince(NOW.minusSeconds(300)).build()).build();
    }

    private static PodInfo running(String name, String node, long cpu, int priority) {
        return PodInfo.builder(name).name(name).namespace("shop").nodeName(node).priority(priority)
                .requests(Resources.of("cpu", cpu)).controller(new OwnerRef("ReplicaSet", name, "rs-" + name)).build();
    }

    private final List<String> calls = new ArrayList<>();
    private Set<String> refused = Set.of();
    private boolean reservable = true;

    private final FakeApi api = new FakeApi();

    /** Records every call, refuses the pods named in {@code refused}, reserves while {@code reservable}. */
    private final class FakeApi implements Evictor, RoomHold {
        @Override
        public EvictionOutcome evict(PodInfo pod, Move move) {
            calls.add("evict " + pod.name());
            return refused.contains(pod.name()) ? new EvictionOutcome(EvictionOutcome.Result.BLOCKED_BY_BUDGET, "429")
                    : new EvictionOutcome(EvictionOutcome.Result.EVICTED, "evicted");
        }

        @Override
        public boolean reserve(String node, Reservation reservation) {
            calls.add(reservation.isLanding() ? "land " + reservation.pod() + " on " + node
                    : "reserve " + node + " for " + reservation.pod() + " until " + reservation.until());
            return reservable;
        }

        @Override
        public void release(String node, String uid) {
            calls.add("release " + node + " of " + uid);
        }

        @Override
        public void announce(PodInfo pending, RoomPlan room) {
            calls.add("announce to " + pending.name() + ": " + room.moves().size() + " off " + room.node());
        }

        @Override
        public void expireAvoidances(String node) {
            // the test reads no avoid list
        }
    }

    private RoundReport round(ClusterSnapshot snapshot) {
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        ClusterView view = ReschedulerTest.view(snapshot, () -> true);
        return new Rescheduler(ReschedulerMode.EVICT, view, new ReschedulerConfigService(null, GENEROUS,
                ConfigMapFeed.NONE, clock), api, api, new NoApi(), () -> true, clock, System::nanoTime,
                new ReschedulerMetrics(new SimpleMeterRegistry()), PreemptionCheck.NEVER, List.of()).round();
    }

    @Test
    void the_node_is_held_and_the_pod_told_before_the_first_eviction_and_each_moved_pod_lands_where_proven() {
        RoundReport round = round(crowded(NodeAdmission.OPEN));
        assertThat(calls).containsExactly("reserve node-1 for batch/report until 2026-11-23T12:02:00Z",
                "announce to report: 2 off node-1", "land shop/a on node-2", "evict a", "land shop/b on node-2", "evict b");
        assertThat(round.rooms()).singleElement().satisfies(r -> {
            assertThat(r.result()).isEqualTo(RoundReport.RoomOutcome.ENACTED);
            assertThat(r.detail()).isEqualTo("node-1 held for batch/report until 2026-11-23T12:02:00Z");
        });
    }

    @Test
    void a_refused_first_eviction_stops_the_room_and_gives_the_hold_back() {
        refused = Set.of("a");
        RoundReport round = round(crowded(NodeAdmission.OPEN));
        assertThat(calls).as("a's landing is given back too: nothing of it is to come").containsExactly(
                "reserve node-1 for batch/report until 2026-11-23T12:02:00Z", "announce to report: 2 off node-1",
                "land shop/a on node-2", "evict a", "release node-2 of a", "release node-1 of report");
        assertThat(round.moves()).extracting(m -> m.move().pod().name() + " " + m.result())
                .containsExactly("a BLOCKED_BY_BUDGET", "b NOT_TRIED");
        assertThat(round.rooms()).extracting(RoundReport.RoomResult::result).containsExactly(RoundReport.RoomOutcome.NOT_ENACTED);
    }

    @Test
    void a_room_half_made_keeps_its_hold_until_it_expires() {
        refused = Set.of("b");
        RoundReport round = round(crowded(NodeAdmission.OPEN));
        assertThat(calls).doesNotContain("release node-1 of report");
        assertThat(round.rooms()).singleElement().satisfies(r -> {
            assertThat(r.result()).isEqualTo(RoundReport.RoomOutcome.PARTLY_ENACTED);
            assertThat(r.detail()).startsWith("1 of 2 moves evicted (shop/b was not evicted)");
        });
    }

    @Test
    void without_a_hold_nothing_is_evicted() {
        reservable = false;
        RoundReport round = round(crowded(NodeAdmission.OPEN));
        assertThat(calls).containsExactly("reserve node-1 for batch/report until 2026-11-23T12:02:00Z");
        assertThat(round.rooms()).singleElement().satisfies(r -> {
            assertThat(r.result()).isEqualTo(RoundReport.RoomOutcome.NOT_ENACTED);
            assertThat(r.detail()).isEqualTo("could not reserve node-1 for batch/report");
        });
    }

    @Test
    void holds_whose_pod_is_gone_or_whose_time_is_up_are_released() {
        NodeAdmission heldForGone = new NodeAdmission(false, List.of(), List.of(),
                new Reservation(new PodRef("batch", "gone", "gone"), NOW.plusSeconds(60)));
        round(crowded(heldForGone));
        assertThat(calls).contains("release node-2 of gone");
        calls.clear();
        NodeAdmission expired = new NodeAdmission(false, List.of(), List.of(),
                new Reservation(new PodRef("batch", "report", "report"), NOW.minusSeconds(1)));
        round(crowded(expired));
        assertThat(calls).contains("release node-2 of report");
    }

    /**
     * A landing served after a round (its replacement bound on the planned node) is removed before the
     * next round, so a replacement deleted meanwhile cannot make it hold again; the next round reports
     * it, once, though the view still shows it.
     */
    @Test
    void a_landing_served_between_rounds_is_removed_then_and_reported_once_with_the_next_round() {
        PodInfo moved = running("a", "node-1", 1000, 0).toBuilder().creationTime(NOW.minusSeconds(3600)).build();
        PodInfo replacement = running("a-new", "node-2", 1000, 0).toBuilder().uid("a-new")
                .controller(moved.controller()).creationTime(NOW).build();
        ClusterSnapshot before = ClusterSnapshot.builder()
                .node("node-1", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .node("node-2", Map.of(), Resources.of("cpu", 4000, "pods", 10)).build();
        ClusterSnapshot served = ClusterSnapshot.builder()
                .node("node-1", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .node("node-2", Map.of(), Resources.of("cpu", 4000, "pods", 10), new NodeAdmission(false, List.of(),
                        List.of(), Reservation.landing(moved, NOW.minusSeconds(10), NOW.plusSeconds(110))))
                .pod(replacement).build();
        java.util.concurrent.atomic.AtomicReference<ClusterSnapshot> now = new java.util.concurrent.atomic.AtomicReference<>(before);
        ClusterView view = new ClusterView() {
            @Override
            public ClusterSnapshot snapshot() {
                return now.get();
            }

            @Override
            public boolean ready() {
                return true;
            }
        };
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Rescheduler rescheduler = new Rescheduler(ReschedulerMode.EVICT, view, new ReschedulerConfigService(null,
                GENEROUS, ConfigMapFeed.NONE, clock), api, api, new NoApi(), () -> true, clock, System::nanoTime,
                new ReschedulerMetrics(registry), PreemptionCheck.NEVER, List.of()).start(java.time.Duration.ofHours(1))) {
            dev.makeroom.support.Await.until("the first round", java.time.Duration.ofSeconds(10),
                    () -> !rescheduler.rounds().isEmpty());
            now.set(served);
            dev.makeroom.support.Await.until("the served landing is removed", java.time.Duration.ofSeconds(10),
                    () -> calls.contains("release node-2 of a"));
            assertThat(rescheduler.rounds()).as("no round ran meanwhile").hasSize(1);

            RoundReport next = rescheduler.round();
            assertThat(next.landings()).containsExactly(new RoundReport.LandingResult(moved.ref(), "node-2", "node-2",
                    RoundReport.LandingOutcome.AS_PLANNED));
            assertThat(rescheduler.round().landings()).as("reported once").isEmpty();
            assertThat(registry.get("makeroom.rescheduler.landings").tag("result", "as_planned").counter().count())
                    .isEqualTo(1.0);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
