package dev.makeroom.mapping;

import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Reservation;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReservationAnnotationTest {

    private static final Reservation HOLD = new Reservation(new PodRef("batch", "report", "report-uid"),
            Instant.parse("2026-11-23T12:02:00Z"));
    private static final Reservation LANDING = new Reservation(new PodRef("shop", "web-7f9-abc", "web-uid"),
            Instant.parse("2026-11-23T12:04:00Z"),
            new Reservation.Replacement("rs-uid", null, 100, Instant.parse("2026-11-23T12:02:00Z")));
    private static final Reservation STATEFUL_LANDING = new Reservation(new PodRef("db", "pg-1", "pg-1-uid"),
            Instant.parse("2026-11-23T12:04:00Z"),
            new Reservation.Replacement("sts-uid", "pg-1", 500, Instant.parse("2026-11-23T12:02:00Z")));

    private static Node node(Map<String, String> annotations) {
        return new NodeBuilder().withNewMetadata().withName("node-1").withAnnotations(annotations).endMetadata().build();
    }

    @Test
    void a_reservation_written_on_a_node_reads_back_and_shows_in_its_admission() {
        Node held = ReservationAnnotation.with(node(Map.of("team", "a")), HOLD);
        assertThat(held.getMetadata().getAnnotations()).containsEntry("team", "a").containsEntry(ReservationAnnotation.KEY,
                "{\"pod\":\"batch/report\",\"uid\":\"report-uid\",\"until\":\"2026-11-23T12:02:00Z\"}");
        assertThat(ReservationAnnotation.read(held.getMetadata().getAnnotations())).containsExactly(HOLD);
        assertThat(SnapshotMapper.admission(held).reservations()).containsExactly(HOLD);
    }

    @Test
    void landings_and_a_pending_pods_hold_share_the_annotation_as_a_list() {
        Node held = ReservationAnnotation.with(ReservationAnnotation.with(ReservationAnnotation.with(node(Map.of()),
                HOLD), LANDING), STATEFUL_LANDING);
        assertThat(held.getMetadata().getAnnotations().get(ReservationAnnotation.KEY)).startsWith("[").contains(
                "\"replacementOf\":{\"controller\":\"rs-uid\",\"priority\":100,\"since\":\"2026-11-23T12:02:00Z\"}",
                "\"replacementOf\":{\"controller\":\"sts-uid\",\"name\":\"pg-1\",\"priority\":500");
        assertThat(SnapshotMapper.admission(held).reservations()).containsExactly(HOLD, LANDING, STATEFUL_LANDING);

        Node landingsOnly = ReservationAnnotation.without(held, "report-uid");
        assertThat(ReservationAnnotation.read(landingsOnly.getMetadata().getAnnotations()))
                .containsExactly(LANDING, STATEFUL_LANDING);
    }

    @Test
    void writing_a_pods_reservation_again_replaces_its_earlier_one() {
        Reservation later = new Reservation(HOLD.pod(), HOLD.until().plusSeconds(60));
        Node held = ReservationAnnotation.with(ReservationAnnotation.with(node(Map.of()), HOLD), later);
        assertThat(ReservationAnnotation.read(held.getMetadata().getAnnotations())).containsExactly(later);
    }

    @Test
    void a_writer_nothing_releases_after_drops_the_entries_whose_time_is_up() {
        Node both = ReservationAnnotation.with(ReservationAnnotation.with(node(Map.of()), HOLD), LANDING);
        Reservation gang = new Reservation(new PodRef("ml", "worker-1", "w1-uid"), Instant.parse("2026-11-23T12:05:00Z"));
        // at 12:03 the hold (until 12:02) is over and the landing (until 12:04) still holds
        Node held = ReservationAnnotation.with(both, gang, Instant.parse("2026-11-23T12:03:00Z"));
        assertThat(ReservationAnnotation.read(held.getMetadata().getAnnotations())).containsExactly(LANDING, gang);
    }

    @Test
    void removing_a_reservation_leaves_another_pods_one_alone() {
        Node held = ReservationAnnotation.with(node(Map.of()), HOLD);
        assertThat(ReservationAnnotation.without(held, "someone-else").getMetadata().getAnnotations())
                .containsKey(ReservationAnnotation.KEY);
        assertThat(ReservationAnnotation.without(held, "report-uid").getMetadata().getAnnotations())
                .doesNotContainKey(ReservationAnnotation.KEY);
    }

    @Test
    void an_entry_makeroom_cannot_read_holds_nothing_and_spoils_no_other() {
        for (String value : new String[] {"not json", "{\"pod\":\"report\",\"uid\":\"u\",\"until\":\"2026-11-23T12:02:00Z\"}",
                "{\"pod\":\"batch/report\",\"uid\":\"u\",\"until\":\"tomorrow\"}", "{\"pod\":\"batch/report\"}", "[]", "",
                "{\"pod\":\"a/b\",\"uid\":\"u\",\"until\":\"2026-11-23T12:02:00Z\",\"replacementOf\":{\"controller\":\"rs\"}}"}) {
            assertThat(ReservationAnnotation.read(Map.of(ReservationAnnotation.KEY, value))).as(value).isEmpty();
        }
        String mixed = "[5, {\"pod\":\"batch/report\",\"uid\":\"report-uid\",\"until\":\"2026-11-23T12:02:00Z\"}]";
        assertThat(ReservationAnnotation.read(Map.of(ReservationAnnotation.KEY, mixed))).containsExactly(HOLD);
    }
}
