package dev.makeroom.core.model;

import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table derived from a predecessor's, across any chain of changes (nodes replaced, added or
 * removed, tables built at some versions and not at others), holds what a table built in full
 * from the same snapshot holds.
 */
class NodeTableChainProperties {

    private static final String[] RESOURCES = {"cpu", "memory", "pods", "example.com/gpu"};
    private static final int[] PRIORITIES = {-1, 0, 1, 2, 3, 10};

    @Property(tries = 200)
    void derived_tables_equal_full_builds(@ForAll long seed) {
        Random random = new Random(seed);
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        int nodes = 2 + random.nextInt(30);
        for (int n = 0; n < nodes; n++) {
            b.node("node-" + n, Map.of(), Resources.of("cpu", 10, "memory", 10, "pods", 5));
        }
        ClusterSnapshot snapshot = b.build();
        snapshot.table();
        for (int step = 0; step < 12; step++) {
            ClusterSnapshot.Change change = snapshot.change();
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                int n = random.nextInt(nodes + 2);
                String name = "node-" + n;
                if (random.nextInt(10) == 0) {
                    change.removeNode(name);
                } else {
                    change.putNode(new NodeInfo(name, Map.of(), amounts(random, 10), pods(random, name), List.of()));
                }
            }
            snapshot = change.build();
            if (random.nextInt(3) == 0) {
                assertSameAsFullBuild(snapshot);
            }
        }
        assertSameAsFullBuild(snapshot);
    }

    private static void assertSameAsFullBuild(ClusterSnapshot snapshot) {
        NodeTable derived = snapshot.table();
        NodeTable full = NodeTable.of(snapshot.nodes());
        assertThat(derived.size()).isEqualTo(full.size());
        for (NodeInfo node : snapshot.nodes()) {
            int d = derived.indexOf(node.name());
            int f = full.indexOf(node.name());
            assertThat(derived.node(d)).isSameAs(node);
            assertThat(derived.hasNominated(d)).isEqualTo(full.hasNominated(f));
            for (String r : List.of("cpu", "memory", "pods", "example.com/gpu", "ephemeral-storage")) {
                int dc = derived.column(r);
                int fc = full.column(r);
                assertThat(derived.allocatable(d, dc)).as(node.name() + " " + r).isEqualTo(full.allocatable(f, fc));
                assertThat(derived.free(d, dc)).as(node.name() + " " + r).isEqualTo(full.free(f, fc));
                for (int priority : PRIORITIES) {
                    assertThat(derived.below(d, derived.stepBelow(d, priority), dc)).as(node.name() + " " + r + " " + priority)
                            .isEqualTo(full.below(f, full.stepBelow(f, priority), fc))
                            .isEqualTo(node.ladder().below(priority).get(r));
                }
            }
        }
    }

    private static List<PodInfo> pods(Random random, String node) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            pods.add(PodInfo.builder(node + "-" + random.nextLong()).name("p").namespace("ns").nodeName(node)
                    .priority(PRIORITIES[1 + random.nextInt(4)]).terminating(random.nextInt(5) == 0)
                    .requests(amounts(random, 4)).build());
        }
        return pods;
    }

    /** Sometimes a resource no node had before, so a derived table must give way to a full build. */
    private static Resources amounts(Random random, int max) {
        Map<String, Long> amounts = new java.util.LinkedHashMap<>();
        for (String r : RESOURCES) {
            if (random.nextInt(3) > 0) {
                amounts.put(r, (long) random.nextInt(max + 1));
            }
        }
        if (random.nextInt(15) == 0) {
            amounts.put("ephemeral-storage", 1L + random.nextInt(max));
        }
        return Resources.of(amounts);
    }
}
