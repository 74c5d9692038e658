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

    private static Node node(Map<String, String> annotations) {
        return new NodeBuilder().withNewMetadata().withName("node-1").withAnnotations(annotations).endMetadata().build();
    }

    @Test
    void a_reservation_written_on_a_node_reads_back_and_shows_in_its_admission() {
        Node held = ReservationAnnotation.with(node(Map.of("team", "a")), HOLD);
        assertThat(held.getMetadata().getAnnotations()).containsEntry("team", "a").containsEntry(ReservationAnnotation.KEY,
                "{\"pod\":\"batch/report\",\"uid\":\"report-uid\",\"until\":\"2026-11-23T12:02:00Z\"}");
        assertThat(ReservationAnnotation.read(held.getMetadata().getAnnotations())).isEqualTo(HOLD);
        assertThat(SnapshotMapper.admission(held).reservation()).isEqualTo(HOLD);
    }

    @Test
    void removing_a_reservation_leaves_another_pods_newer_one_alone() {
        Node held = ReservationAnnotation.with(node(Map.of()), HOLD);
        assertThat(ReservationAnnotation.without(held, "someone-else").getMetadata().getAnnotations())
                .containsKey(ReservationAnnotation.KEY);
        assertThat(ReservationAnnotation.without(held, "report-uid").getMetadata().getAnnotations())
                .doesNotContainKey(ReservationAnnotation.KEY);
    }

    @Test
    void an_annotation_makeroom_cannot_read_holds_nothing() {
        for (String value : new String[] {"not json", "{\"pod\":\"report\",\"uid\":\"u\",\"until\":\"2026-11-23T12:02:00Z\"}",
                "{\"pod\":\"batch/report\",\"uid\":\"u\",\"until\":\"tomorrow\"}", "{\"pod\":\"batch/report\"}", "[]", ""}) {
            assertThat(ReservationAnnotation.read(Map.of(ReservationAnnotation.KEY, value))).as(value).isNull();
        }
    }
}
