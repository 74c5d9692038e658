package dev.makeroom.mapping;

import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.PodInfo;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each system's marks on a pod name its gang; the pod's own count, where there is one, its minimum. */
class GangMembershipTest {

    private static PodInfo read(String metadata, String spec) {
        String json = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"worker-0\",\"namespace\":\"ml\",\"uid\":\"u-0\""
                + metadata + "},\"spec\":{\"containers\":[{\"name\":\"c\"}]" + spec + "}}";
        return PodMapper.toCore(LeanReading.serialization().unmarshal(json, Pod.class), name -> null);
    }

    private static Gang gangOf(String metadata) {
        return read(metadata, "").gang();
    }

    @Test
    void a_pod_without_marks_is_in_no_gang() {
        assertThat(gangOf(",\"labels\":{\"app\":\"web\"}")).isNull();
    }

    @Test
    void coscheduling_names_the_group_and_its_minimum_is_unknown_without_makerooms_annotation() {
        assertThat(gangOf(",\"labels\":{\"scheduling.x-k8s.io/pod-group\":\"train-1\"}"))
                .isEqualTo(new Gang("ml", "coscheduling", "train-1", Gang.EVERY_MEMBER));
        assertThat(gangOf(",\"labels\":{\"pod-group.scheduling.sigs.k8s.io\":\"train-1\"}"))
                .isEqualTo(new Gang("ml", "coscheduling", "train-1", Gang.EVERY_MEMBER));
        assertThat(gangOf(",\"labels\":{\"scheduling.x-k8s.io/pod-group\":\"train-1\"},"
                + "\"annotations\":{\"makeroom.dev/gang-min-member\":\"6\"}"))
                .isEqualTo(new Gang("ml", "coscheduling", "train-1", 6));
    }

    @Test
    void volcano_kueue_leaderworkerset_and_jobset_are_read_from_their_own_marks() {
        assertThat(gangOf(",\"annotations\":{\"scheduling.k8s.io/group-name\":\"pg-1\"}"))
                .isEqualTo(new Gang("ml", "volcano", "pg-1", Gang.EVERY_MEMBER));
        assertThat(gangOf(",\"labels\":{\"kueue.x-k8s.io/pod-group-name\":\"group-a\"},"
                + "\"annotations\":{\"kueue.x-k8s.io/pod-group-total-count\":\"4\"}"))
                .isEqualTo(new Gang("ml", "kueue", "group-a", 4));
        assertThat(gangOf(",\"labels\":{\"leaderworkerset.sigs.k8s.io/name\":\"llm\",\"leaderworkerset.sigs.k8s.io/group-index\":\"2\"},"
                + "\"annotations\":{\"leaderworkerset.sigs.k8s.io/size\":\"3\"}"))
                .isEqualTo(new Gang("ml", "leaderworkerset", "llm/2", 3));
        assertThat(gangOf(",\"labels\":{\"jobset.sigs.k8s.io/jobset-name\":\"pretrain\"}"))
                .isEqualTo(new Gang("ml", "jobset", "pretrain", Gang.EVERY_MEMBER));
    }

    @Test
    void a_leaderworkerset_pod_without_its_group_index_is_in_no_gang() {
        assertThat(gangOf(",\"labels\":{\"leaderworkerset.sigs.k8s.io/name\":\"llm\"}")).isNull();
    }

    @Test
    void the_workload_apis_scheduling_group_names_its_pod_group() {
        assertThat(read("", ",\"schedulingGroup\":{\"podGroupName\":\"training-worker-0\"}").gang())
                .isEqualTo(new Gang("ml", "workload", "training-worker-0", Gang.EVERY_MEMBER));
    }

    @Test
    void makerooms_own_label_comes_first_and_a_count_that_is_not_one_is_ignored() {
        assertThat(gangOf(",\"labels\":{\"makeroom.dev/gang\":\"mine\",\"scheduling.x-k8s.io/pod-group\":\"theirs\"},"
                + "\"annotations\":{\"makeroom.dev/gang-min-member\":\"many\"}"))
                .isEqualTo(new Gang("ml", "makeroom", "mine", Gang.EVERY_MEMBER));
        assertThat(gangOf(",\"labels\":{\"kueue.x-k8s.io/pod-group-name\":\"group-a\"},"
                + "\"annotations\":{\"kueue.x-k8s.io/pod-group-total-count\":\"-2\"}"))
                .isEqualTo(new Gang("ml", "kueue", "group-a", Gang.EVERY_MEMBER));
    }

    @Test
    void a_gang_is_one_identity_for_members_that_state_different_minimums() {
        Gang stated = new Gang("ml", "coscheduling", "train-1", 3);
        Gang unstated = new Gang("ml", "coscheduling", "train-1", Gang.EVERY_MEMBER);
        assertThat(stated.key()).isEqualTo(unstated.key());
        assertThat(Map.of(stated.key(), 1)).containsKey(unstated.key());
    }
}
