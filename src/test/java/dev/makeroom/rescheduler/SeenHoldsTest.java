package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.rounds.RoomHold;
import dev.makeroom.core.rounds.RoomPlan;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** A hold counts only once makeroom's own view shows it: the filter that honours it reads that view. */
class SeenHoldsTest {

    private static final Reservation HOLD = new Reservation(new PodRef("batch", "report", "report-uid"),
            Instant.parse("2026-12-07T12:10:00Z"), null);
    private static final ClusterSnapshot WITHOUT = ClusterSnapshot.builder()
            .node("node-4", Map.of(), Resources.of("cpu", 4000, "pods", 10)).build();
    private static final ClusterSnapshot WITH = ClusterSnapshot.builder()
            .node("node-4", Map.of(), Resources.of("cpu", 4000, "pods", 10),
                    new NodeAdmission(false, List.of(), List.of(), HOLD)).build();

    private final List<String> written = new ArrayList<>();
    private final RoomHold api = new RoomHold() {
        @Override
        public boolean reserve(String node, Reservation reservation) {
            written.add("reserve " + node + " " + reservation.pod().name());
            return true;
        }

        @Override
        public void release(String node, String uid) {
            written.add("release " + node + " " + uid);
        }

        @Override
        public void announce(PodInfo pending, RoomPlan room) {
        }
    };

    /** A view whose snapshot shows the hold from its {@code seenAfter}-th look on (never, when negative). */
    private static ClusterView view(int seenAfter, AtomicInteger looks) {
        return new ClusterView() {
            @Override
            public ClusterSnapshot snapshot() {
                int look = looks.incrementAndGet();
                return seenAfter >= 0 && look > seenAfter ? WITH : WITHOUT;
            }

            @Override
            public boolean ready() {
                return true;
            }
        };
    }

    @Test
    void a_hold_the_watch_brings_back_is_taken() {
        AtomicInteger looks = new AtomicInteger();
        assertThat(new SeenHolds(api, view(3, looks), Duration.ofSeconds(5)).reserve("node-4", HOLD)).isTrue();
        assertThat(looks.get()).as("it waited for the view").isEqualTo(4);
        assertThat(written).containsExactly("reserve node-4 report");
    }

    @Test
    void a_hold_the_view_never_shows_is_ended_and_not_relied_on() {
        AtomicInteger looks = new AtomicInteger();
        assertThat(new SeenHolds(api, view(-1, looks), Duration.ofMillis(50)).reserve("node-4", HOLD)).isFalse();
        assertThat(written).containsExactly("reserve node-4 report", "release node-4 report-uid");
    }

    @Test
    void a_hold_the_api_refused_is_not_waited_for() {
        RoomHold refusing = new RoomHold() {
            @Override
            public boolean reserve(String node, Reservation reservation) {
                return false;
            }

            @Override
            public void release(String node, String uid) {
                written.add("release");
            }

            @Override
            public void announce(PodInfo pending, RoomPlan room) {
            }
        };
        AtomicInteger looks = new AtomicInteger();
        assertThat(new SeenHolds(refusing, view(0, looks), Duration.ofSeconds(5)).reserve("node-4", HOLD)).isFalse();
        assertThat(looks.get()).isZero();
        assertThat(written).isEmpty();
    }
}
