package dev.makeroom.core.score;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ShieldScorePolicyTest {

    private static PodInfo running(String name, String node, int priority, long cpu) {
        return PodInfo.builder(name).nodeName(node).priority(priority).requests(Resources.of("cpu", cpu)).build();
    }

    private final ClusterSnapshot snapshot = ClusterSnapshot.builder()
            .node("busy", Map.of(), Resources.of("cpu", 1000, "pods", 10))
            .node("shielded", Map.of(), Resources.of("cpu", 1000, "pods", 10))
            .node("exposed", Map.of(), Resources.of("cpu", 1000, "pods", 10))
            .pod(running("full", "busy", 1, 1000))
            .pod(running("low", "shielded", 1, 600))
            .pod(running("high", "exposed", 50, 600))
            .build();

    private final PodInfo pending = PodInfo.builder("p").priority(10).requests(Resources.of("cpu", 200)).build();

    @Test
    void lower_priority_pods_around_the_pod_shield_it_and_higher_ones_do_not() {
        List<NodeScore> scores = new ShieldScorePolicy().score(snapshot, pending,
                List.of("shielded", "exposed", "busy", "unknown"));

        // shielded: (1000 - 600 - 200 free + 600 lower) / 1000 = 0.8; exposed: 200 / 1000 = 0.2
        assertThat(scores).containsExactly(new NodeScore("shielded", 8), new NodeScore("exposed", 2),
                new NodeScore("busy", 0), new NodeScore("unknown", 0));
    }

    @Test
    void a_node_on_the_avoid_list_scores_zero() {
        AvoidList avoidShielded = (pod, node) -> node.equals("shielded");

        List<NodeScore> scores = new ShieldScorePolicy().score(snapshot, pending, List.of("shielded", "exposed"),
                avoidShielded);

        assertThat(scores).containsExactly(new NodeScore("shielded", 0), new NodeScore("exposed", 2));
    }
}
