package dev.makeroom.core.model;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NodeAdmissionTest {

    private static PodInfo tolerating(Toleration... tolerations) {
        return PodInfo.builder("p").tolerations(List.of(tolerations)).build();
    }

    private static final Taint GPU = new Taint("dedicated", "gpu", "NoSchedule");

    @Test
    void a_repelling_taint_keeps_out_pods_that_do_not_tolerate_it() {
        NodeAdmission tainted = new NodeAdmission(false, List.of(GPU));
        assertThat(tainted.admits(tolerating())).isFalse();
        assertThat(tainted.admits(tolerating(new Toleration("dedicated", "Equal", "gpu", "NoSchedule")))).isTrue();
        assertThat(tainted.admits(tolerating(new Toleration("dedicated", "Equal", "cpu", "NoSchedule")))).isFalse();
        assertThat(tainted.admits(tolerating(new Toleration("dedicated", "Exists", null, null)))).isTrue();
        assertThat(tainted.admits(tolerating(new Toleration("dedicated", "Exists", null, "NoExecute")))).isFalse();
        assertThat(tainted.admits(tolerating(new Toleration(null, "Exists", null, null)))).isTrue();
    }

    @Test
    void prefer_no_schedule_only_scores_and_a_cordon_keeps_out_all_but_its_tolerators() {
        assertThat(new NodeAdmission(false, List.of(new Taint("k", null, "PreferNoSchedule"))).admits(tolerating()))
                .isTrue();
        NodeAdmission cordoned = new NodeAdmission(true, List.of());
        assertThat(cordoned.admits(tolerating())).isFalse();
        assertThat(cordoned.admits(tolerating(new Toleration("node.kubernetes.io/unschedulable", "Exists", null,
                "NoSchedule")))).isTrue();
        assertThat(NodeAdmission.OPEN.admits(tolerating())).isTrue();
    }
}
