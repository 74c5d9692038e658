package dev.makeroom.core.filter;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.RandomCluster;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.fast.RequestedNodes;
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
        ClusterSnapshot snapshot = withSomeHolds(c.snapshot(), c.pending(), new Random(seed));

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

    @Property(tries = 100)
    void rows_found_in_another_snapshots_table_are_found_again(@ForAll long seed) {
        RandomCluster c = RandomCluster.generate(seed);
        ClusterSnapshot snapshot = withSomeHolds(c.snapshot(), c.pending(), new Random(seed));
        RequestedNodes stale = RequestedNodes.resolve(RandomCluster.withoutFirstNode(snapshot).table(), c.asked());
        FilterPolicy policy = new FilterPolicy();

        assertThat(policy.filter(snapshot, c.pending(), stale, null, NOW))
                .isEqualTo(policy.filter(snapshot, c.pending(), c.asked(), null, NOW));
    }

    /** About a third of the nodes hold their room for a pending pod of random priority (some for this one). */
    private static ClusterSnapshot withSomeHolds(ClusterSnapshot snapshot, PodInfo pending, Random random) {
        ClusterSnapshot.Change change = snapshot.change();
        for (NodeInfo node : snapshot.nodes()) {
            if (random.nextInt(3) != 0) {
                continue;
            }
            PodInfo holder = random.nextInt(4) == 0 ? pending : PodInfo.builder("holder-" + node.name())
                    .namespace("batch").name("holder-" + node.name())
                    .priority(pending.priority() + random.nextInt(3) - 1).build();
            change.putPod(holder);
            Reservation hold = new Reservation(holder.ref(), NOW.plusSeconds(random.nextInt(3) == 0 ? -5 : 60));
            NodeAdmission admission = node.admission();
            change.putNode(new NodeInfo(node.name(), node.labels(), node.allocatable(), node.pods(),
                    node.nominatedPods(), new NodeAdmission(admission.unschedulable(), admission.taints(),
                    admission.avoided(), hold)));
        }
        return change.build();
    }
}
