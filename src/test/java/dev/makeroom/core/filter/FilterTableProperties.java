package dev.makeroom.core.filter;

import dev.makeroom.core.accounting.FitCheck;
import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.RandomCluster;
import dev.makeroom.core.model.fast.RequestedNodes;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Filter through the flat node table answers exactly what the plain rule answers node by node
 * (each node looked up by name, what is taken there from {@link NodeUsage}, {@link FitCheck}).
 */
class FilterTableProperties {

    @Property(tries = 300)
    void the_table_answers_as_the_plain_rule(@ForAll long seed) {
        RandomCluster c = RandomCluster.generate(seed);

        FilterVerdict verdict = new FilterPolicy().filter(c.snapshot(), c.pending(), c.asked());

        List<String> passed = new ArrayList<>();
        Map<String, String> failed = new LinkedHashMap<>();
        String home = NodeUsage.homeOf(c.snapshot(), c.pending());
        for (String name : c.asked()) {
            NodeInfo node = c.snapshot().node(name);
            long mask = node == null ? -1 : FitCheck.shortMask(node.allocatable(),
                    NodeUsage.requestedFor(node, c.pending(), home), c.pending().requests());
            if (mask == 0) {
                passed.add(name);
            } else {
                failed.put(name, mask < 0 ? FilterPolicy.UNKNOWN_NODE : dev.makeroom.core.accounting.FitCheck.describe(mask, c.pending().requests()));
            }
        }
        assertThat(verdict.passed()).isEqualTo(passed);
        assertThat(new ArrayList<>(verdict.failed().entrySet())).isEqualTo(new ArrayList<>(failed.entrySet()));
    }

    @Property(tries = 100)
    void rows_found_in_another_snapshots_table_are_found_again(@ForAll long seed) {
        RandomCluster c = RandomCluster.generate(seed);
        RequestedNodes stale = RequestedNodes.resolve(RandomCluster.withoutFirstNode(c.snapshot()).table(), c.asked());
        FilterPolicy policy = new FilterPolicy();

        assertThat(policy.filter(c.snapshot(), c.pending(), stale, null, java.time.Instant.EPOCH))
                .isEqualTo(policy.filter(c.snapshot(), c.pending(), c.asked()));
    }
}
