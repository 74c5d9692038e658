package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.mapping.SnapshotMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * A cluster dump's PodGroups state their gangs' minimums, each kind where it keeps its own, and meet
 * their members on the gang's key: coscheduling's and Volcano's {@code spec.minMember}, the Workload
 * API's gang policy (its basic policy is no gang: a minimum of one).
 */
class PodGroupsInSnapshotFileTest {

    private static final String DUMP = """
            apiVersion: v1
            kind: List
            items:
            - apiVersion: scheduling.x-k8s.io/v1alpha1
              kind: PodGroup
              metadata: {name: bert, namespace: ml}
              spec: {minMember: 3}
            - apiVersion: scheduling.volcano.sh/v1beta1
              kind: PodGroup
              metadata: {name: resnet, namespace: ml}
              spec: {minMember: 2, queue: default}
            - apiVersion: scheduling.k8s.io/v1alpha2
              kind: PodGroup
              metadata: {name: gpt, namespace: ml}
              spec: {schedulingPolicy: {gang: {minCount: 4}}}
            - apiVersion: scheduling.k8s.io/v1alpha2
              kind: PodGroup
              metadata: {name: serving, namespace: ml}
              spec: {schedulingPolicy: {basic: {}}}
            - apiVersion: scheduling.x-k8s.io/v1alpha1
              kind: PodGroup
              metadata: {name: unstated, namespace: ml}
              spec: {}
            - apiVersion: example.com/v1
              kind: PodGroup
              metadata: {name: other, namespace: ml}
              spec: {minMember: 9}
            - apiVersion: v1
              kind: Pod
              metadata:
                name: bert-0
                namespace: ml
                uid: u0
                labels: {scheduling.x-k8s.io/pod-group: bert}
                annotations: {makeroom.dev/gang-min-member: "1"}
              spec: {containers: [{name: c}]}
            """;

    private static ClusterSnapshot load() {
        List<io.fabric8.kubernetes.api.model.HasMetadata> objects = new SnapshotFileLoader()
                .load(new ByteArrayInputStream(DUMP.getBytes(StandardCharsets.UTF_8)), "dump");
        return SnapshotMapper.toSnapshot(objects);
    }

    private static String key(String system, String name) {
        return new Gang("ml", system, name, Gang.EVERY_MEMBER).key();
    }

    @Test
    void each_kind_states_its_gangs_minimum_where_it_keeps_it() {
        assertThat(load().gangMinimums()).containsOnly(
                entry(key("coscheduling", "bert"), 3),
                entry(key("volcano", "resnet"), 2),
                entry(key("workload", "gpt"), 4),
                entry(key("workload", "serving"), 1));
    }

    @Test
    void the_groups_minimum_wins_over_the_annotation_its_members_carry() {
        ClusterSnapshot snapshot = load();
        PodInfo member = snapshot.podNamed("ml/bert-0");
        assertThat(member.gang().minMember()).isEqualTo(1);
        assertThat(snapshot.gangAsKnown(member.gang(), List.of(member)).minMember()).isEqualTo(3);
    }
}
