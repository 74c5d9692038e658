package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.mapping.PodMapper;
import dev.makeroom.support.Fixtures;
import dev.makeroom.support.Json;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code kube-default} strategy picks, on every node of every captured preempt call, exactly
 * the victims (in the same order) and PDB count that the real kube-scheduler v1.26 sent.
 */
class KubeDefaultReproducesSchedulerTest {

    @ParameterizedTest(name = "{0}/{1}")
    @CsvSource({
            "cache-capable, preempt-request.json, cluster-at-preempt.json",
            "full-objects, preempt-request.json, cluster-at-preempt.json",
            "cache-capable-pdb, preempt-request.json, cluster-at-preempt.json",
            "cache-capable, preempt-narrowed-request.json, cluster-at-preempt-narrowed.json",
            "full-objects, preempt-narrowed-request.json, cluster-at-preempt-narrowed.json"})
    void every_node_gets_the_schedulers_own_victims(String folder, String request, String cluster) {
        ClusterSnapshot snapshot = Fixtures.cluster(folder, cluster);
        JsonNode body = Json.parse(Fixtures.read(folder, request));
        Pod pod = new KubernetesSerialization().unmarshal(body.get("Pod").toString(), Pod.class);
        PodInfo pending = PodMapper.toCore(pod, name -> snapshot.priorityClass(name).value());
        Map<String, List<String>> expectedVictims = new TreeMap<>();
        Map<String, Integer> expectedPdb = new TreeMap<>();
        readScheduler(body, expectedVictims, expectedPdb);

        PreemptionDecision decision = Scenario.kubeDefault().decide(snapshot, pending, List.copyOf(expectedVictims.keySet()));

        assertThat(decision.chosen()).hasSize(expectedVictims.size());
        for (NodeVerdict verdict : decision.chosen()) {
            assertThat(verdict.victims().victims()).extracting(PodInfo::uid)
                    .as(verdict.node()).containsExactlyElementsOf(expectedVictims.get(verdict.node()));
            assertThat(verdict.victims().pdbViolations()).isEqualTo(expectedPdb.get(verdict.node()));
        }
    }

    private static void readScheduler(JsonNode body, Map<String, List<String>> victims, Map<String, Integer> pdb) {
        boolean meta = !body.get("NodeNameToMetaVictims").isNull();
        JsonNode byNode = meta ? body.get("NodeNameToMetaVictims") : body.get("NodeNameToVictims");
        for (String node : byNode.propertyNames()) {
            List<String> uids = new ArrayList<>();
            byNode.get(node).get("Pods").forEach(p -> uids.add(meta ? p.get("UID").asString()
                    : p.get("metadata").get("uid").asString()));
            victims.put(node, uids);
            pdb.put(node, byNode.get(node).get("NumPDBViolations").asInt());
        }
    }
}
