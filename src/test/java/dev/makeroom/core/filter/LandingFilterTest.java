package dev.makeroom.core.filter;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Resources;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A moved pod's landing: the filter steers its replacement (a later pod of the same controller) to
 * the node the move was proven on, keeps other pods of no higher priority off the room, and lets go
 * once the replacement is bound there, the time is up, or the node is not among those asked.
 */
class LandingFilterTest {

    private static final Instant MOVED_AT = Instant.parse("2026-11-27T12:00:00Z");
    private static final Instant NOW = MOVED_AT.plusSeconds(5);
    private static final List<String> ASKED = List.of("a", "planned", "b");
    private static final OwnerRef WEB = new OwnerRef("ReplicaSet", "web-7f9", "rs-web");
    private static final OwnerRef DB = new OwnerRef("StatefulSet", "db", "sts-db");
    private static final FilterPolicy FILTER = new FilterPolicy();

    private static PodInfo pod(String name, OwnerRef controller, int priority, Instant created) {
        return PodInfo.builder("uid-" + name).name(name).namespace("shop").priority(priority).controller(controller)
                .creationTime(created).requests(Resources.of("cpu", 500)).build();
    }

    private static ClusterSnapshot cluster(List<PodInfo> onPlanned, Reservation... landings) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (String name : ASKED) {
            b.node(name, Map.of(), Resources.of("cpu", 4000, "pods", 10),
                    name.equals("planned") ? new NodeAdmission(false, List.of(), List.of(), List.of(landings))
                            : NodeAdmission.OPEN);
        }
        onPlanned.forEach(p -> b.pod(p.toBuilder().nodeName("planned").build()));
        return b.build();
    }

    private static Reservation landingOf(PodInfo moved) {
        return Reservation.landing(moved, MOVED_AT, MOVED_AT.plusSeconds(120));
    }

    @Test
    void the_replacement_is_steered_to_the_planned_node_while_it_is_asked_about() {
        PodInfo moved = pod("web-1", WEB, 100, MOVED_AT.minusSeconds(3600));
        ClusterSnapshot snapshot = cluster(List.of(), landingOf(moved));
        PodInfo replacement = pod("web-2", WEB, 100, NOW);

        FilterVerdict verdict = FILTER.filter(snapshot, replacement, ASKED, null, NOW);
        assertThat(verdict.passed()).containsExactly("planned");
        assertThat(verdict.failed()).containsOnlyKeys("a", "b").containsValue("makeroom holds room for this pod on planned");
        assertThat(verdict.unresolvable()).isEmpty();

        assertThat(FILTER.filter(snapshot, replacement, List.of("a", "b"), null, NOW).passed())
                .as("the planned node no longer fits (the scheduler did not pass it): the pod goes anywhere")
                .containsExactly("a", "b");
    }

    @Test
    void other_pods_of_no_higher_priority_are_kept_off_the_room_and_higher_ones_are_not() {
        ClusterSnapshot snapshot = cluster(List.of(), landingOf(pod("web-1", WEB, 100, MOVED_AT.minusSeconds(60))));

        FilterVerdict other = FILTER.filter(snapshot, pod("batch", null, 100, NOW), ASKED, null, NOW);
        assertThat(other.passed()).containsExactly("a", "b");
        assertThat(other.unresolvable()).containsExactly(
                Map.entry("planned", "reserved by makeroom for the replacement of shop/web-1, moved there"));
        assertThat(FILTER.filter(snapshot, pod("urgent", null, 101, NOW), ASKED, null, NOW).passed()).isEqualTo(ASKED);
    }

    @Test
    void a_statefulset_pods_landing_is_claimed_by_its_own_name_only() {
        PodInfo moved = pod("db-1", DB, 500, MOVED_AT.minusSeconds(60));
        ClusterSnapshot snapshot = cluster(List.of(), landingOf(moved));

        assertThat(FILTER.filter(snapshot, pod("db-1", DB, 500, NOW).toBuilder().uid("uid-db-1-new").build(), ASKED,
                null, NOW).passed()).containsExactly("planned");
        assertThat(FILTER.filter(snapshot, pod("db-0", DB, 500, NOW), ASKED, null, NOW).passed())
                .as("another replica is not its replacement, and is kept off the room").containsExactly("a", "b");
    }

    @Test
    void the_landing_lets_go_when_its_time_is_up() {
        PodInfo moved = pod("web-1", WEB, 100, MOVED_AT.minusSeconds(60));
        ClusterSnapshot snapshot = cluster(List.of(), landingOf(moved));
        Instant late = MOVED_AT.plusSeconds(120);

        assertThat(FILTER.filter(snapshot, pod("web-2", WEB, 100, late), ASKED, null, late).passed()).isEqualTo(ASKED);
        assertThat(FILTER.filter(snapshot, pod("batch", null, 0, late), ASKED, null, late).passed()).isEqualTo(ASKED);
    }

    @Test
    void each_replacement_bound_on_the_node_serves_one_landing_of_its_controller() {
        PodInfo first = pod("web-1", WEB, 100, MOVED_AT.minusSeconds(60));
        PodInfo second = pod("web-3", WEB, 100, MOVED_AT.minusSeconds(60));
        PodInfo older = pod("web-0", WEB, 100, MOVED_AT.minusSeconds(600)); // a replica there before the move
        PodInfo replacement = pod("web-2", WEB, 100, NOW);
        List<PodInfo> bound = new ArrayList<>(List.of(older));

        ClusterSnapshot two = cluster(bound, landingOf(first), landingOf(second));
        assertThat(Reservation.holdingOn(two.node("planned"), two, NOW)).hasSize(2);

        bound.add(replacement);
        ClusterSnapshot one = cluster(bound, landingOf(first), landingOf(second));
        NodeInfo planned = one.node("planned");
        assertThat(Reservation.holdingOn(planned, one, NOW)).hasSize(1);
        assertThat(FILTER.filter(one, pod("web-4", WEB, 100, NOW), ASKED, null, NOW).passed())
                .as("the second replacement is still steered").containsExactly("planned");

        bound.add(pod("web-4", WEB, 100, NOW));
        ClusterSnapshot none = cluster(bound, landingOf(first), landingOf(second));
        assertThat(Reservation.holdingOn(none.node("planned"), none, NOW)).isEmpty();
        assertThat(FILTER.filter(none, pod("batch", null, 0, NOW), ASKED, null, NOW).passed()).isEqualTo(ASKED);
    }

    @Test
    void where_a_replacement_landed_is_found_on_the_planned_node_first() {
        PodInfo moved = pod("web-1", WEB, 100, MOVED_AT.minusSeconds(60));
        Reservation landing = landingOf(moved);
        assertThat(landing.replacementIn(cluster(List.of(), landing), "planned")).isNull();
        assertThat(landing.replacementIn(cluster(List.of(pod("web-2", WEB, 100, NOW)), landing), "planned"))
                .extracting(PodInfo::nodeName).isEqualTo("planned");

        ClusterSnapshot elsewhere = ClusterSnapshot.builder().node("planned", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .node("b", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .pod(pod("web-2", WEB, 100, NOW).toBuilder().nodeName("b").build()).build();
        assertThat(landing.replacementIn(elsewhere, "planned")).extracting(PodInfo::name, PodInfo::nodeName)
                .containsExactly("web-2", "b");
    }
}
