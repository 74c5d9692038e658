package dev.makeroom.mapping;

import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.Taint;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NodeMappingTest {

    private static Node node(String yaml) {
        return new KubernetesSerialization().unmarshal(yaml, Node.class);
    }

    @Test
    void a_cordon_and_taints_are_read_and_a_plain_node_is_open() {
        NodeAdmission admission = SnapshotMapper.admission(node("""
                apiVersion: v1
                kind: Node
                metadata: {name: n}
                spec:
                  unschedulable: true
                  taints:
                  - {key: dedicated, value: gpu, effect: NoSchedule}
                  - {key: soft, effect: PreferNoSchedule}
                """));
        assertThat(admission.unschedulable()).isTrue();
        assertThat(admission.taints()).containsExactly(new Taint("dedicated", "gpu", "NoSchedule"),
                new Taint("soft", null, "PreferNoSchedule"));
        assertThat(SnapshotMapper.admission(node("""
                apiVersion: v1
                kind: Node
                metadata: {name: m}
                """)))
                .isEqualTo(NodeAdmission.OPEN);
    }
}
