package dev.makeroom.cluster;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.makeroom.bench.SyntheticObjects;
import dev.makeroom.core.model.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;


import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Random;

/**
 * Measures the live view's heap for a generated cluster (default 5,000 nodes, 150,000 pods): the
 * objects ({@link SyntheticObjects}) go through the same mapping and state code as informer events, and through the same
 * metadata-only item stores the informers keep. Prints the retained heap after a full GC.
 *
 * <p>{@code ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=dev.makeroom.cluster.LiveSetMemory -Dbench.args="5000 30"}
 */
public final class LiveSetMemory {

    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int podsPerNode = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        long before = usedAfterGc();

        MetadataItemStore<Node> nodeStore = new MetadataItemStore<>(Node.class);
        MetadataItemStore<Pod> podStore = new MetadataItemStore<>(Pod.class);
        LiveClusterState state = new LiveClusterState(new EvictionMemory(Duration.ofMinutes(10), Ticker.systemTicker()));
        Random random = new Random(7);
        long rv = 1;
        for (int n = 0; n < nodes; n++) {
            Node node = SyntheticObjects.node("node-" + n, rv++);
            nodeStore.put(nodeStore.getKey(node), node);
            state.apply(new ClusterEvent(ClusterEvent.Kind.NODE, false, node));
            for (int i = 0; i < podsPerNode; i++) {
                Pod pod = SyntheticObjects.pod("node-" + n, i, random, rv++);
                podStore.put(podStore.getKey(pod), pod);
                state.apply(new ClusterEvent(ClusterEvent.Kind.POD, false, LeanPod.of(pod)));
            }
            if (n % 500 == 499) {
                state.publish(); // as the applier does per batch
            }
        }
        ClusterSnapshot snapshot = state.publish();
        long after = usedAfterGc();
        System.out.printf("nodes %d, pods %d: live set %.1f MB (heap after full GC, minus the empty baseline)%n",
                snapshot.nodes().size(), snapshot.pods().size(), (after - before) / 1024.0 / 1024.0);
        // keep everything reachable until measured
        if (nodeStore.size() + podStore.size() + snapshot.pods().size() == 42) {
            System.out.println(state);
        }
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
