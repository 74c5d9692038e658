package dev.makeroom.core.score;

import dev.makeroom.core.model.Avoidance;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class AvoidListTest {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

    private static PodInfo of(String controllerUid) {
        return PodInfo.builder("p-" + controllerUid).controller(new OwnerRef("ReplicaSet", "rs", controllerUid)).build();
    }

    @Test
    void a_nodes_avoid_list_keeps_its_controllers_away_until_makeroom_s_entries_expire() {
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .node("left", Map.of(), Resources.of("cpu", 1000), new NodeAdmission(false, List.of(), List.of(
                        new Avoidance("moved", NOW.plusSeconds(3600), true), new Avoidance("theirs", null, false))))
                .node("other", Map.of(), Resources.of("cpu", 1000)).build();
        AvoidList now = AvoidList.ofNodes(snapshot, NOW);
        assertThat(now.avoid(of("moved"), "left")).isTrue();
        assertThat(now.avoid(of("theirs"), "left")).isTrue();
        assertThat(now.avoid(of("unrelated"), "left")).isFalse();
        assertThat(now.avoid(of("moved"), "other")).isFalse();
        assertThat(now.avoid(PodInfo.builder("bare").build(), "left")).isFalse();
        AvoidList later = AvoidList.ofNodes(snapshot, NOW.plusSeconds(7200));
        assertThat(later.avoid(of("moved"), "left")).isFalse();
        assertThat(later.avoid(of("theirs"), "left")).isTrue();
        assertThat(snapshot.node("left").admission().hasExpiredOwn(NOW.plusSeconds(7200))).isTrue();
    }

    @Test
    void either_list_avoids_and_a_cluster_without_avoid_lists_adds_nothing() {
        ClusterSnapshot plain = ClusterSnapshot.builder().node("n", Map.of(), Resources.of("cpu", 1000)).build();
        assertThat(AvoidList.ofNodes(plain, NOW)).isSameAs(AvoidList.NONE);
        AvoidList kubelet = (pod, node) -> node.equals("n");
        assertThat(kubelet.or(AvoidList.NONE)).isSameAs(kubelet);
        assertThat(AvoidList.NONE.or((pod, node) -> true).avoid(of("x"), "m")).isTrue();
    }
}
