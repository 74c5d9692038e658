package dev.makeroom.web.json;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.RandomCluster;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class NodeNameJsonTest {

    private final NodeNameJson nodeNames = new NodeNameJson();

    @Test
    void a_filter_between_two_prioritize_calls_keeps_the_encodings() {
        NodeTable table = RandomCluster.generate(7).snapshot().table();
        NodeNameJson.Encoded first = nodeNames.of(table);

        nodeNames.of(NodeTable.EMPTY); // the filter's unresolved names

        assertThat(nodeNames.of(table)).isSameAs(first);
    }

    @Test
    void a_snapshot_with_the_same_nodes_reuses_the_bytes() {
        RandomCluster cluster = RandomCluster.generate(11);
        ClusterSnapshot snapshot = cluster.snapshot();
        NodeNameJson.Encoded first = nodeNames.of(snapshot.table());
        String someNode = snapshot.table().name(0);
        ClusterSnapshot next = snapshot.change().putNode(snapshot.node(someNode)).build();

        NodeNameJson.Encoded second = nodeNames.of(next.table());

        assertThat(second.table()).isSameAs(next.table());
        assertThat(second.bytes()).isSameAs(first.bytes());
    }
}
