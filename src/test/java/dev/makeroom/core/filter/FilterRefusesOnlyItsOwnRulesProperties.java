package dev.makeroom.core.filter;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.RandomCluster;
import dev.makeroom.core.model.Reservation;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filter refuses a node only by makeroom's own rules (here: room held for another pod), never by
 * resources, which the scheduler's own filters checked from a fresher view: every node asked, known or
 * not, full or not, comes back passed or, where a hold keeps the pod off, unresolvable; in the order asked.
 */
class FilterRefusesOnlyItsOwnRulesProperties {

    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    @Property(tries = 300)
    void only_held_nodes_are_refused_and_the_rest_pass_in_the_order_asked(@ForAll long seed) {
        RandomCluster c = RandomCluster.generate(seed);
        ClusterSnapshot snapshot = c.withSomeHolds(new Random(seed), NOW);

        FilterVerdict verdict = new FilterPolicy().filter(snapshot, c.pending(), c.asked(), null, NOW);

        List<String> passed = new ArrayList<>();
        Set<String> refused = new LinkedHashSet<>(); // a name asked twice is refused once: a map's key
        for (String name : c.asked()) {
            NodeInfo node = snapshot.node(name);
            boolean held = node != null && node.admission().reservation() != null
                    && node.admission().reservation().keepsOff(c.pending(), snapshot, NOW);
            (held ? refused : passed).add(name);
        }
        assertThat(verdict.passed()).isEqualTo(passed);
        assertThat(verdict.failed()).isEmpty();
        assertThat(new ArrayList<>(verdict.unresolvable().keySet())).isEqualTo(new ArrayList<>(refused));
    }
}
