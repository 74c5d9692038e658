package dev.makeroom.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The live view and the extender's pods are read leanly; what is mapped from them must not change. */
class LeanReadingTest {

    private static final Path FIXTURES = Path.of("src/test/resources/fixtures/kube-scheduler-v1.26/full-objects");
    private static final KubernetesSerialization FULL = new KubernetesSerialization();
    private static final KubernetesSerialization LEAN = LeanReading.serialization();

    /** A pod with every skipped part beside the parts read next to them (an emptyDir, allocated resources). */
    private static final String BUSY_POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"busy","namespace":"team-1","uid":"u-1",
             "resourceVersion":"7","creationTimestamp":"2026-11-20T08:00:00Z","labels":{"app":"busy"},
             "managedFields":[{"manager":"kubelet","operation":"Update","fieldsType":"FieldsV1",
               "fieldsV1":{"f:status":{"f:conditions":{}}}}],
             "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"busy-1","uid":"rs-1","controller":true}]},
             "spec":{"nodeName":"node-1","priority":100,"priorityClassName":"batch",
              "containers":[{"name":"main","image":"example/busy:1","command":["run"],"args":["--fast"],
                "env":[{"name":"A","value":"1"}],"envFrom":[{"configMapRef":{"name":"c"}}],
                "ports":[{"containerPort":80,"hostPort":8080,"protocol":"TCP"}],
                "resources":{"requests":{"cpu":"250m","memory":"128Mi"},"limits":{"memory":"256Mi"}},
                "volumeMounts":[{"name":"scratch","mountPath":"/scratch"}],
                "livenessProbe":{"httpGet":{"path":"/healthz","port":80}},
                "readinessProbe":{"exec":{"command":["true"]}},
                "securityContext":{"runAsNonRoot":true}}],
              "volumes":[{"name":"scratch","emptyDir":{}},
                {"name":"token","projected":{"sources":[{"serviceAccountToken":{"path":"token"}}]}},
                {"name":"conf","configMap":{"name":"c"}},{"name":"keys","secret":{"secretName":"s"}}],
              "tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute",
                "tolerationSeconds":300}]},
             "status":{"phase":"Running","qosClass":"Burstable","startTime":"2026-11-20T08:01:00Z",
              "conditions":[{"type":"Ready","status":"True"}],
              "containerStatuses":[{"name":"main","ready":true,"restartCount":2,"image":"example/busy:1",
                "imageID":"sha256:ab","containerID":"containerd://cd","state":{"running":{"startedAt":"2026-11-20T08:01:00Z"}},
                "allocatedResources":{"cpu":"300m","memory":"128Mi"}}]}}
            """;

    @Test
    void a_pod_read_leanly_maps_as_one_read_in_full() {
        Pod full = FULL.unmarshal(BUSY_POD, Pod.class);
        Pod lean = LEAN.unmarshal(BUSY_POD, Pod.class);

        assertThat(PodMapper.toCore(lean, name -> null)).isEqualTo(PodMapper.toCore(full, name -> null));
        assertThat(PodMapper.isTerminal(lean)).isEqualTo(PodMapper.isTerminal(full));
        assertThat(lean.getStatus().getReason()).isEqualTo(full.getStatus().getReason());
        // skipped, not kept aside as unknown properties
        assertThat(lean.getMetadata().getManagedFields()).isEmpty();
        assertThat(lean.getSpec().getContainers().get(0).getEnv()).isEmpty();
        assertThat(lean.getSpec().getContainers().get(0).getAdditionalProperties()).isEmpty();
        assertThat(lean.getSpec().getVolumes().get(1).getProjected()).isNull();
        assertThat(lean.getStatus().getContainerStatuses().get(0).getState()).isNull();
        // what is read next to what is skipped stays
        assertThat(lean.getSpec().getVolumes().get(0).getEmptyDir()).isNotNull();
        assertThat(lean.getStatus().getContainerStatuses().get(0).getAllocatedResources()).containsKey("cpu");
    }

    @Test
    void the_real_schedulers_pods_and_nodes_map_alike_read_either_way() throws IOException {
        List<JsonNode> pods = new ArrayList<>();
        List<JsonNode> nodes = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        try (var files = Files.list(FIXTURES.resolve("all-calls"))) {
            for (Path file : files.filter(f -> !f.toString().endsWith(".response.json")).sorted().toList()) {
                JsonNode body = json.readTree(file.toFile());
                if (body.hasNonNull("Pod")) {
                    pods.add(body.get("Pod"));
                }
                body.path("Nodes").path("items").forEach(nodes::add);
            }
        }
        assertThat(pods).isNotEmpty();
        assertThat(nodes).isNotEmpty();
        for (JsonNode pod : pods) {
            String text = pod.toString();
            assertThat(PodMapper.toCore(LEAN.unmarshal(text, Pod.class), name -> null))
                    .isEqualTo(PodMapper.toCore(FULL.unmarshal(text, Pod.class), name -> null));
        }
        List<HasMetadata> full = new ArrayList<>();
        List<HasMetadata> lean = new ArrayList<>();
        for (JsonNode node : nodes) {
            full.add(FULL.unmarshal(node.toString(), Node.class));
            lean.add(LEAN.unmarshal(node.toString(), Node.class));
        }
        assertThat(List.copyOf(SnapshotMapper.toSnapshot(lean).nodes()))
                .isEqualTo(List.copyOf(SnapshotMapper.toSnapshot(full).nodes()));
        assertThat(((Node) lean.get(0)).getStatus().getNodeInfo()).isNull();
        assertThat(((Node) full.get(0)).getStatus().getNodeInfo()).isNotNull();
    }
}
