package dev.makeroom.core.model;

import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The nodes holding a reservation, an avoid list or a taint, carried from snapshot to snapshot across any
 * chain of changes (nodes replaced, added, removed, indexes asked for at some versions and not at
 * others), are exactly the nodes of the snapshot that hold one, as they are in that snapshot.
 */
class AdmissionIndexProperties {

    @Property(tries = 200)
    void carried_indexes_equal_the_nodes_that_hold_one(@ForAll long seed) {
        Random random = new Random(seed);
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        int nodes = 2 + random.nextInt(20);
        for (int n = 0; n < nodes; n++) {
            b.node("node-" + n, Map.of(), Resources.of("cpu", 10), admission(random));
        }
        ClusterSnapshot snapshot = b.build();
        for (int step = 0; step < 15; step++) {
            if (random.nextInt(3) > 0) {
                assertIndexesTrue(snapshot);
            }
            ClusterSnapshot.Change change = snapshot.change();
            for (int e = 0, edits = 1 + random.nextInt(3); e < edits; e++) {
                String name = "node-" + random.nextInt(nodes + 3);
                if (random.nextInt(6) == 0) {
                    change.removeNode(name);
                } else {
                    change.putNode(new NodeInfo(name, Map.of(), Resources.of("cpu", 10), List.of(), List.of(),
                            admission(random)));
                }
            }
            snapshot = change.build();
        }
        assertIndexesTrue(snapshot);
    }

    private static void assertIndexesTrue(ClusterSnapshot snapshot) {
        assertThat(snapshot.nodesWithReservations()).isEqualTo(holding(snapshot, a -> !a.reservations().isEmpty()));
        assertThat(snapshot.nodesWithAvoidances()).isEqualTo(holding(snapshot, a -> !a.avoided().isEmpty()));
        assertThat(snapshot.nodesWithTaints()).isEqualTo(holding(snapshot, a -> !a.taints().isEmpty()));
        // the very NodeInfo of this snapshot, not a predecessor's
        snapshot.nodesWithReservations().forEach((name, node) -> assertThat(node).isSameAs(snapshot.node(name)));
        snapshot.nodesWithAvoidances().forEach((name, node) -> assertThat(node).isSameAs(snapshot.node(name)));
        snapshot.nodesWithTaints().forEach((name, node) -> assertThat(node).isSameAs(snapshot.node(name)));
    }

    private static Map<String, NodeInfo> holding(ClusterSnapshot snapshot,
                                                 java.util.function.Predicate<NodeAdmission> has) {
        return snapshot.nodes().stream().filter(n -> has.test(n.admission()))
                .collect(Collectors.toMap(NodeInfo::name, n -> n));
    }

    private static NodeAdmission admission(Random random) {
        return switch (random.nextInt(5)) {
            case 0 -> new NodeAdmission(false, List.of(), List.of(),
                    new Reservation(new PodRef("ns", "p", "uid-p"), Instant.EPOCH));
            case 1 -> new NodeAdmission(false, List.of(),
                    List.of(new Avoidance("rs-" + random.nextInt(3), Instant.EPOCH, true)));
            case 2 -> new NodeAdmission(random.nextBoolean(), List.of());
            case 3 -> new NodeAdmission(false, List.of(ConsolidationMark.emptied(Instant.EPOCH)));
            default -> NodeAdmission.OPEN;
        };
    }
}
