package dev.makeroom.core.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Small random clusters for checking the {@link NodeTable} fast paths against the plain rules:
 * nodes that differ in which resources they have at all, bound pods of mixed priorities (some
 * terminating), pods nominated to some nodes, sometimes the pending pod already bound, and asked
 * names in random order with unknown and repeated ones.
 */
public record RandomCluster(ClusterSnapshot snapshot, PodInfo pending, List<String> asked) {

    private static final String[] RESOURCES = {"cpu", "memory", "pods", "example.com/gpu", "ephemeral-storage"};

    public static RandomCluster generate(long seed) {
        Random random = new Random(seed);
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        int nodes = 1 + random.nextInt(40);
        List<String> names = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            String name = random.nextInt(5) == 0 ? "nöde-" + n : "node-" + n;
            names.add(name);
            b.node(name, Map.of(), amounts(random, 8));
        }
        PodInfo pending = PodInfo.builder("pending").name("pending").namespace("ns").priority(random.nextInt(4))
                .requests(amounts(random, 3)).build();
        int pod = 0;
        for (String node : names) {
            for (int i = random.nextInt(5); i > 0; i--) {
                b.pod(PodInfo.builder("p" + pod++).name("p").namespace("ns").nodeName(node).priority(random.nextInt(4))
                        .terminating(random.nextInt(6) == 0).requests(amounts(random, 3)).resourceVersion(pod).build());
            }
            if (random.nextInt(4) == 0) {
                b.pod(PodInfo.builder("n" + pod++).name("n").namespace("ns").nominatedNodeName(node)
                        .priority(random.nextInt(4)).requests(amounts(random, 3)).build());
            }
        }
        if (random.nextBoolean()) { // a newer view already shows the pending pod bound
            b.pod(pending.toBuilder().nodeName(names.get(random.nextInt(nodes))).resourceVersion(pod).build());
        }
        List<String> asked = new ArrayList<>(names);
        asked.addAll(List.of("node-" + nodes, "unknown", "node-0"));
        Collections.shuffle(asked, random);
        return new RandomCluster(b.build(), pending, asked);
    }

    /** The snapshot less one node: its table gives most other nodes other rows than the snapshot's own. */
    public static ClusterSnapshot withoutFirstNode(ClusterSnapshot snapshot) {
        return snapshot.change().removeNode(snapshot.table().name(0)).build();
    }

    /** Each resource present with a small amount or absent, so nodes differ in what they have at all. */
    private static Resources amounts(Random random, int max) {
        Map<String, Long> amounts = new LinkedHashMap<>();
        for (String r : RESOURCES) {
            if (random.nextInt(3) > 0) {
                amounts.put(r, (long) random.nextInt(max + 1));
            }
        }
        return Resources.of(amounts);
    }

    /**
     * The snapshot with about a third of its nodes holding their room for a pending pod of random
     * priority (some for {@code pending}), a third of those holds over at {@code now}.
     */
    public ClusterSnapshot withSomeHolds(Random random, java.time.Instant now) {
        ClusterSnapshot.Change change = snapshot.change();
        for (NodeInfo node : snapshot.nodes()) {
            if (random.nextInt(3) != 0) {
                continue;
            }
            PodInfo holder = random.nextInt(4) == 0 ? pending : PodInfo.builder("holder-" + node.name())
                    .namespace("batch").name("holder-" + node.name())
                    .priority(pending.priority() + random.nextInt(3) - 1).build();
            change.putPod(holder);
            Reservation hold = new Reservation(holder.ref(), now.plusSeconds(random.nextInt(3) == 0 ? -5 : 60));
            NodeAdmission admission = node.admission();
            change.putNode(new NodeInfo(node.name(), node.labels(), node.allocatable(), node.pods(),
                    node.nominatedPods(), new NodeAdmission(admission.unschedulable(), admission.taints(),
                    admission.avoided(), hold)));
        }
        return change.build();
    }
}
