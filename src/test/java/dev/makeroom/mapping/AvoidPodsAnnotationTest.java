package dev.makeroom.mapping;

import dev.makeroom.core.model.Avoidance;
import dev.makeroom.core.model.OwnerRef;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AvoidPodsAnnotationTest {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final String THEIRS = "{\"preferAvoidPods\":[{\"podSignature\":{\"podController\":{\"kind\":\"ReplicaSet\","
            + "\"name\":\"legacy\",\"uid\":\"legacy-uid\",\"controller\":true}},\"reason\":\"set by an operator\"}]}";

    private static Node node(String annotation) {
        NodeBuilder b = new NodeBuilder().withNewMetadata().withName("n").endMetadata();
        return annotation == null ? b.build()
                : b.editMetadata().addToAnnotations(AvoidPodsAnnotation.KEY, annotation).endMetadata().build();
    }

    private static OwnerRef rs(int i) {
        return new OwnerRef("ReplicaSet", "rs-" + i, "uid-" + i);
    }

    @Test
    void makeroom_keeps_its_newest_entries_within_the_bound_and_leaves_others_alone() {
        Node node = node(THEIRS);
        for (int i = 0; i < AvoidPodsAnnotation.MAX_OWN + 5; i++) {
            node = AvoidPodsAnnotation.with(node, rs(i), "makeroom rebalance", "moved", NOW.plusSeconds(i), Duration.ofHours(1));
        }
        List<Avoidance> entries = AvoidPodsAnnotation.avoidances(node.getMetadata().getAnnotations());
        assertThat(entries).filteredOn(Avoidance::own).hasSize(AvoidPodsAnnotation.MAX_OWN)
                .extracting(Avoidance::controllerUid).doesNotContain("uid-0", "uid-4").contains("uid-5", "uid-36");
        assertThat(entries).filteredOn(a -> !a.own()).singleElement()
                .satisfies(a -> assertThat(a.controllerUid()).isEqualTo("legacy-uid"));
    }

    @Test
    void an_entry_for_the_same_controller_is_renewed_and_expired_ones_go() {
        Node node = AvoidPodsAnnotation.with(node(null), rs(1), "makeroom affinity", "moved", NOW, Duration.ofHours(1));
        node = AvoidPodsAnnotation.with(node, rs(1), "makeroom affinity", "moved again", NOW.plusSeconds(1800),
                Duration.ofHours(1));
        assertThat(AvoidPodsAnnotation.avoidances(node.getMetadata().getAnnotations())).singleElement()
                .satisfies(a -> assertThat(a.until()).isEqualTo(NOW.plusSeconds(1800 + 3600)));
        Node later = AvoidPodsAnnotation.expired(node, NOW.plusSeconds(10_000));
        assertThat(later.getMetadata().getAnnotations()).doesNotContainKey(AvoidPodsAnnotation.KEY);
    }
}
