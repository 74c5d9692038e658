package dev.makeroom.cluster;

import dev.makeroom.mapping.SnapshotMapper;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.support.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotFileLoaderTest {

    private static final String NODE_YAML = """
            apiVersion: v1
            kind: Node
            metadata:
              name: n1
            status:
              allocatable: {cpu: "2", memory: 4Gi, pods: "10"}
            """;
    private static final String POD_YAML = """
            apiVersion: v1
            kind: Pod
            metadata: {name: p1, namespace: team, uid: u1}
            spec:
              nodeName: n1
              priority: 7
              containers:
              - name: c
                resources: {requests: {cpu: 500m, memory: 1Gi}}
            """;

    @TempDir
    Path dir;

    private ClusterSnapshot load(String name, String content) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return SnapshotMapper.toSnapshot(new SnapshotFileLoader().load(file));
    }

    private static void assertNodeWithPod(ClusterSnapshot snapshot) {
        assertThat(snapshot.node("n1").allocatable()).isEqualTo(
                Resources.of("cpu", 2000, "memory", 4L << 30, "pods", 10));
        PodInfo pod = snapshot.pod("u1");
        assertThat(pod.priority()).isEqualTo(7);
        assertThat(pod.requests()).isEqualTo(Resources.of("cpu", 500, "memory", 1L << 30));
        assertThat(pod.qos()).isEqualTo(QosClass.BURSTABLE);
        assertThat(snapshot.node("n1").pods()).containsExactly(pod);
    }

    @Test
    void a_multi_document_yaml_file_loads() throws IOException {
        assertNodeWithPod(load("dump.yaml", NODE_YAML + "---\n" + POD_YAML));
    }

    @Test
    void a_yaml_list_as_kubectl_writes_it_loads() throws IOException {
        String list = "apiVersion: v1\nkind: List\nitems:\n"
                + ("- " + NODE_YAML.replace("\n", "\n  ")).stripTrailing() + "\n"
                + ("- " + POD_YAML.replace("\n", "\n  ")).stripTrailing() + "\n";
        assertNodeWithPod(load("list.yaml", list));
    }

    @Test
    void a_json_list_loads() throws IOException {
        String json = """
                {"apiVersion": "v1", "kind": "List", "items": [
                  {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
                   "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "10"}}},
                  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p1", "namespace": "team", "uid": "u1"},
                   "spec": {"nodeName": "n1", "priority": 7, "containers": [{"name": "c",
                     "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}}}]}}
                ]}""";
        assertNodeWithPod(load("list.json", json));
    }

    @Test
    void a_single_json_object_loads() throws IOException {
        ClusterSnapshot snapshot = load("node.json",
                "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"solo\"},"
                        + "\"status\":{\"capacity\":{\"cpu\":\"1\",\"pods\":\"3\"}}}");
        assertThat(snapshot.node("solo").allocatable()).isEqualTo(Resources.of("cpu", 1000, "pods", 3));
    }

    @Test
    void other_kinds_are_ignored_and_finished_pods_are_left_out() throws IOException {
        String extra = """
                apiVersion: v1
                kind: Service
                metadata: {name: svc, namespace: team}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: done, namespace: team, uid: u2}
                spec: {nodeName: n1, containers: [{name: c}]}
                status: {phase: Succeeded}
                """;
        ClusterSnapshot snapshot = load("mixed.yaml", NODE_YAML + "---\n" + POD_YAML + "---\n" + extra);
        assertThat(snapshot.pod("u2")).isNull();
        assertThat(snapshot.node("n1").pods()).hasSize(1);
    }

    @Test
    void the_real_capture_loads_with_every_object() {
        ClusterSnapshot snapshot = Fixtures.cluster("cache-capable-pdb", "cluster-at-preempt.json");
        assertThat(snapshot.nodes()).hasSize(3);
        assertThat(snapshot.pods()).hasSize(13);
        assertThat(snapshot.priorityClasses()).hasSize(4);
        assertThat(snapshot.budgets()).singleElement().satisfies(b -> assertThat(b.disruptionsAllowed()).isZero());
        assertThat(snapshot.namespaceAnnotations()).containsKeys("default", "kube-system");
        snapshot.nodes().forEach(n -> assertThat(n.pods()).hasSize(4));
    }

    @Test
    void the_demo_cluster_loads() {
        ClusterSnapshot snapshot = SnapshotMapper.toSnapshot(
                new SnapshotFileLoader().load(Path.of("examples/demo-cluster.yaml")));
        assertThat(snapshot.nodes()).hasSizeGreaterThanOrEqualTo(4);
        assertThat(snapshot.priorityClasses()).anyMatch(pc -> pc.optedOut());
        assertThat(snapshot.budgets()).isNotEmpty();
        assertThat(snapshot.pods()).extracting(PodInfo::qos).contains(QosClass.values());
    }

    @Test
    void objects_makeroom_cannot_read_are_left_out_by_name_and_the_rest_loads() throws IOException {
        String bad = """
                apiVersion: v1
                kind: Pod
                metadata: {name: broken, namespace: team, uid: u3}
                spec: {nodeName: n1, containers: [null, {name: c}]}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {namespace: team, uid: u4}
                spec: {nodeName: n1, containers: [{name: c}]}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: n2}
                status: {allocatable: {cpu: "lots"}}
                """;
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, NODE_YAML + "---\n" + POD_YAML + "---\n" + bad);
        List<String> skipped = new ArrayList<>();

        ClusterSnapshot snapshot = SnapshotMapper.toSnapshot(new SnapshotFileLoader().load(file), skipped::add);

        assertNodeWithPod(snapshot);
        assertThat(snapshot.node("n2")).isNull();
        assertThat(skipped).hasSize(3);
        assertThat(skipped.get(0)).isEqualTo("Pod team/broken: spec.containers[0] is null");
        assertThat(skipped.get(1)).isEqualTo("Pod (unnamed): metadata.name is missing");
        assertThat(skipped.get(2)).startsWith("Node n2: ").contains("lots");
    }

    @Test
    void a_wrong_typed_value_rejects_the_file_naming_where_it_is() throws IOException {
        Path file = dir.resolve("typed.yaml");
        Files.writeString(file, NODE_YAML + "---\n" + POD_YAML.replace("priority: 7", "priority: high"));

        assertThatThrownBy(() -> new SnapshotFileLoader().load(file)).isInstanceOf(SnapshotLoadException.class)
                .hasMessageContaining("spec.priority").hasMessageNotContaining("\n");
    }

    @Test
    void a_missing_file_is_a_clear_error() {
        assertThatThrownBy(() -> new SnapshotFileLoader().load(dir.resolve("nope.yaml")))
                .isInstanceOf(SnapshotLoadException.class).hasMessageContaining("does not exist");
    }

    @Test
    void a_file_that_is_not_kubernetes_objects_is_a_clear_error() throws IOException {
        Path file = dir.resolve("junk.yaml");
        Files.writeString(file, "{{{ not yaml");
        assertThatThrownBy(() -> new SnapshotFileLoader().load(file))
                .isInstanceOf(SnapshotLoadException.class).hasMessageContaining("cannot parse");
    }
}
