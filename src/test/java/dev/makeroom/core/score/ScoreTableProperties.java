package dev.makeroom.core.score;

import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.RandomCluster;
import dev.makeroom.core.model.RequestedNodes;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Prioritize through the flat node table scores every node exactly as the plain per-node rule does. */
class ScoreTableProperties {

    @Property(tries = 300)
    void the_table_scores_as_the_plain_rule(@ForAll long seed) {
        RandomCluster c = RandomCluster.generate(seed);
        ShieldScorePolicy policy = new ShieldScorePolicy();
        AvoidList avoid = (pod, node) -> node.hashCode() % 7 == 0;

        List<NodeScore> scores = policy.score(c.snapshot(), c.pending(), c.asked(), avoid);

        String home = NodeUsage.homeOf(c.snapshot(), c.pending());
        List<NodeScore> expected = new ArrayList<>();
        for (String name : c.asked()) {
            NodeInfo node = c.snapshot().node(name);
            expected.add(new NodeScore(name, node == null || avoid.avoid(c.pending(), name) ? 0
                    : policy.score(node, c.pending(), home, ShieldScorePolicy.dimensions(c.pending()))));
        }
        assertThat(scores).isEqualTo(expected);
    }

    @Property(tries = 100)
    void rows_found_in_another_snapshots_table_are_found_again(@ForAll long seed) {
        RandomCluster c = RandomCluster.generate(seed);
        RequestedNodes stale = RequestedNodes.resolve(RandomCluster.withoutFirstNode(c.snapshot()).table(), c.asked());
        ShieldScorePolicy policy = new ShieldScorePolicy();

        assertThat(policy.score(c.snapshot(), c.pending(), stale, AvoidList.NONE))
                .isEqualTo(policy.score(c.snapshot(), c.pending(), c.asked()));
    }
}
