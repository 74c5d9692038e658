package dev.makeroom.core.filter;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.RandomCluster;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;

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

    /**
     * Nodes held for another pod of at least this one's priority are refused as unresolvable; when a
     * node holding room for this pod is among those asked (a hold still open, its own), every node
     * other than those fails; the rest pass, in the order asked.
     */
    @Property(tries = 300)
    void only_held_nodes_are_refused_and_the_rest_pass_in_the_order_asked(@ForAll long seed) {
        RandomCluster c = RandomCluster.generate(seed);
        ClusterSnapshot snapshot = c.withSomeHolds(new Random(seed), NOW);

        FilterVerdict verdict = new FilterPolicy().filter(snapshot, c.pending(), c.asked(), null, NOW);

        Set<String> itsOwn = new LinkedHashSet<>();
        for (String name : c.asked()) {
            NodeInfo node = snapshot.node(name);
            if (node != null && node.admission().reservations().stream().anyMatch(r -> r.pod().uid()
                    .equals(c.pending().uid()) && r.until().isAfter(NOW) && !c.pending().isAssigned()
                    && !c.pending().terminating())) {
                itsOwn.add(name);
            }
        }
        List<String> passed = new ArrayList<>();
        Set<String> failed = new LinkedHashSet<>(); // a name asked twice is refused once: a map's key
        Set<String> refused = new LinkedHashSet<>();
        for (String name : c.asked()) {
            NodeInfo node = snapshot.node(name);
            boolean held = node != null && Reservation.keepingOff(node, c.pending(), snapshot, NOW) != null;
            (held ? refused : itsOwn.isEmpty() || itsOwn.contains(name) ? passed : failed).add(name);
        }
        assertThat(verdict.passed()).isEqualTo(passed);
        assertThat(new ArrayList<>(verdict.failed().keySet())).isEqualTo(new ArrayList<>(failed));
        assertThat(new ArrayList<>(verdict.unresolvable().keySet())).isEqualTo(new ArrayList<>(refused));
    }
}
