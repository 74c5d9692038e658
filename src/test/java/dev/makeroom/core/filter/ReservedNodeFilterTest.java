package dev.makeroom.core.filter;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Resources;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Room makeroom freed and holds for one pending pod: the filter keeps others off it while the hold lasts. */
class ReservedNodeFilterTest {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final Instant UNTIL = NOW.plusSeconds(120);
    private static final FilterPolicy FILTER = new FilterPolicy();

    private static PodInfo pod(String name, int priority) {
        return PodInfo.builder(name).name(name).namespace("batch").priority(priority)
                .requests(Resources.of("cpu", 500)).build();
    }

    private static ClusterSnapshot cluster(PodInfo reservedFor) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder()
                .node("held", Map.of(), Resources.of("cpu", 4000, "pods", 10), new NodeAdmission(false, List.of(),
                        List.of(), new Reservation(new PodRef("batch", "report", "report"), UNTIL)))
                .node("open", Map.of(), Resources.of("cpu", 4000, "pods", 10));
        return reservedFor == null ? b.build() : b.pod(reservedFor).build();
    }

    private static FilterVerdict filter(ClusterSnapshot snapshot, PodInfo pod, Instant at) {
        return FILTER.filter(snapshot, pod, List.of("held", "open"), null, at);
    }

    @Test
    void a_held_node_is_unresolvable_for_other_pods_of_priority_up_to_the_pending_pods() {
        ClusterSnapshot snapshot = cluster(pod("report", 100));
        FilterVerdict verdict = filter(snapshot, pod("other", 100), NOW);
        assertThat(verdict.passed()).containsExactly("open");
        assertThat(verdict.unresolvable()).containsExactly(Map.entry("held", "reserved for batch/report by makeroom"));
        assertThat(filter(snapshot, pod("lower", 5), NOW).passed()).containsExactly("open");
    }

    @Test
    void pods_of_higher_priority_pass_and_the_pod_it_is_held_for_is_steered_there() {
        ClusterSnapshot snapshot = cluster(pod("report", 100));
        assertThat(filter(snapshot, pod("urgent", 101), NOW).passed()).containsExactly("held", "open");
        FilterVerdict held = filter(snapshot, snapshot.pod("report"), NOW);
        assertThat(held.passed()).containsExactly("held");
        assertThat(held.failed()).containsExactly(Map.entry("open", "makeroom holds room for this pod on held"));
        assertThat(FILTER.filter(snapshot, snapshot.pod("report"), List.of("open"), null, NOW).passed())
                .as("its node not asked about: not steered").containsExactly("open");
    }

    @Test
    void the_hold_ends_when_its_time_is_up_when_the_pod_binds_and_when_it_is_deleted() {
        PodInfo pending = pod("report", 100);
        assertThat(filter(cluster(pending), pod("other", 0), UNTIL).passed()).as("expired").contains("held");
        PodInfo bound = pending.toBuilder().nodeName("open").build();
        assertThat(filter(cluster(bound), pod("other", 0), NOW).passed()).as("bound").contains("held");
        assertThat(filter(cluster(null), pod("other", 0), NOW).passed()).as("deleted").contains("held");
        PodInfo leaving = pending.toBuilder().terminating(true).build();
        assertThat(filter(cluster(leaving), pod("other", 0), NOW).passed()).as("being deleted").contains("held");
    }
}
