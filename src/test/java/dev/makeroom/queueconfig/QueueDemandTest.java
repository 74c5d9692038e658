package dev.makeroom.queueconfig;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.queue.QueueDemand;
import dev.makeroom.core.queue.QueueTree;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Pending and preempting per queue: pending pods only, the nominated ones also preempting, rolled up to the root. */
class QueueDemandTest {

    private static final QueueTree TREE = QueueConfigParser.parse("""
            defaultQueue: root.other
            queues:
              - name: root
                queues:
                  - name: shop
                  - name: other
            """, w -> { });

    @Test
    void pending_pods_count_where_they_belong_and_the_nominated_ones_as_preempting() {
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .node("n1", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .pod(PodInfo.builder("running").namespace("shop").nodeName("n1").requests(Resources.of("cpu", 1000)).build())
                .pod(PodInfo.builder("waiting").namespace("shop").requests(Resources.of("cpu", 2000)).build())
                .pod(PodInfo.builder("nominated").namespace("shop").nominatedNodeName("n1")
                        .requests(Resources.of("cpu", 500)).build())
                .pod(PodInfo.builder("leaving").namespace("shop").terminating(true).requests(Resources.of("cpu", 700)).build())
                .pod(PodInfo.builder("elsewhere").namespace("batch").requests(Resources.of("cpu", 300)).build())
                .build();
        QueueDemand demand = QueueDemand.of(snapshot, TREE);
        assertThat(demand.pending(TREE.queue("root.shop"), "cpu")).isEqualTo(2500);
        assertThat(demand.pending(TREE.queue("root.shop"), Resources.PODS)).isEqualTo(2);
        assertThat(demand.preempting(TREE.queue("root.shop"), "cpu")).isEqualTo(500);
        assertThat(demand.pending(TREE.queue("root.other"), "cpu")).isEqualTo(300);
        assertThat(demand.pending(TREE.queue("root"), "cpu")).isEqualTo(2800);
        assertThat(demand.preempting(TREE.queue("root"), "cpu")).isEqualTo(500);
        assertThat(demand.isFor(snapshot, TREE)).isTrue();
    }
}
