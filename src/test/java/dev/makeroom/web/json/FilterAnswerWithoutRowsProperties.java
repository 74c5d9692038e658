package dev.makeroom.web.json;

import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.filter.FilterVerdict;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.RandomCluster;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter reads the names it is asked about without looking them up in the node table. Its answer,
 * byte for byte, is the one written from names found in the table (unknown and repeated names, nodes
 * held for another pod, held ones over), on random clusters.
 */
class FilterAnswerWithoutRowsProperties {

    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    private final WireJson json = new WireJson();
    private final NodeNameJson nodeNames = new NodeNameJson();
    private final FilterPolicy policy = new FilterPolicy();

    @Property(tries = 150)
    void names_taken_as_they_come_answer_as_names_looked_up(@ForAll long seed) {
        RandomCluster c = RandomCluster.generate(seed);
        ClusterSnapshot snapshot = c.withSomeHolds(new Random(seed), NOW);
        byte[] body = ("{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"Nodes\":null,\"NodeNames\":["
                + c.asked().stream().map(n -> '"' + n + '"').collect(Collectors.joining(",")) + "]}")
                .getBytes(StandardCharsets.UTF_8);

        NodesArgs looked = json.readNodesArgs(body, snapshot.table());
        NodesArgs taken = json.readNodesArgsUnresolved(body, snapshot.table());
        FilterVerdict verdict = policy.filter(snapshot, c.pending(), taken.names(), null, NOW);

        assertThat(taken.names()).isEqualTo(looked.names());
        assertThat(verdict).isEqualTo(policy.filter(snapshot, c.pending(), looked.names(), null, NOW));
        assertThat(NodesAnswers.filter(taken, verdict, nodeNames.of(taken.nodes().table())).toByteArray())
                .isEqualTo(NodesAnswers.filter(looked, verdict, nodeNames.of(looked.nodes().table())).toByteArray());
    }
}
