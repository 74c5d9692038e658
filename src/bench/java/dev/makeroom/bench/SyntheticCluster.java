package dev.makeroom.bench;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PriorityClassInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A generated cluster for benchmarks: nodes filled close to full with a realistic mix of pods
 * (mostly batch, some services, a few opted-out system pods and BestEffort pods), replicated
 * workloads of identical pods, and PDBs over some services. Deterministic for a given seed.
 */
public final class SyntheticCluster {

    public static final int BATCH = 100;
    public static final int SERVICE = 1000;
    public static final int SYSTEM = 100_000;

    private SyntheticCluster() {
    }

    /** Three resource dimensions (cpu, memory, ephemeral-storage) plus the pod count. */
    public static ClusterSnapshot generate(int nodes, int podsPerNode, long seed) {
        Random random = new Random(seed);
        ClusterSnapshot.Builder b = ClusterSnapshot.builder()
                .priorityClass(new PriorityClassInfo("batch", BATCH, false))
                .priorityClass(new PriorityClassInfo("service", SERVICE, false))
                .priorityClass(new PriorityClassInfo("system", SYSTEM, true));
        long cpuPerPod = 300;
        long cpu = cpuPerPod * podsPerNode;
        long memory = (cpu / 1000 + 1) * 4L * (1L << 30);
        long storage = 200L << 30;
        Instant epoch = Instant.parse("2026-11-01T00:00:00Z");
        long rv = 1;
        for (int n = 0; n < nodes; n++) {
            String node = "node-" + n;
            b.node(node, Map.of("kubernetes.io/hostname", node),
                    Resources.of("cpu", cpu, "memory", memory, "ephemeral-storage", storage, "pods", 110));
            long usedCpu = 0;
            for (int i = 0; i < podsPerNode; i++) {
                Workload w = Workload.pick(random);
                // replicas share their shape: 8 shapes per kind, so identical pods recur on a node
                int shape = random.nextInt(8);
                long podCpu = w.requests ? (long) (cpuPerPod * (0.4 + 0.2 * shape)) : 0;
                if (usedCpu + podCpu > cpu) {
                    podCpu = Math.max(0, cpu - usedCpu);
                }
                usedCpu += podCpu;
                Map<String, Long> req = new HashMap<>();
                if (w.requests) {
                    req.put("cpu", podCpu);
                    req.put("memory", (256L << 20) * (1 + shape));
                    req.put("ephemeral-storage", (1L << 30) * (1 + shape % 3));
                }
                String app = w.name + "-" + shape;
                b.pod(PodInfo.builder(node + "-p" + i).name(app + "-" + n + "-" + i).namespace("ns-" + shape % 4)
                        .nodeName(node).priority(w.priority).priorityClassName(w.name)
                        .requests(Resources.of(req)).qos(w.requests ? QosClass.values()[1 + shape % 2] : QosClass.BEST_EFFORT)
                        .labels(Map.of("app", app))
                        .startTime(epoch.plusSeconds(random.nextInt(86_400 * 10)))
                        .resourceVersion(rv++).build());
            }
        }
        for (int shape = 0; shape < 8; shape += 2) {
            b.budget(new DisruptionBudget("ns-" + shape % 4, "service-" + shape,
                    LabelSelector.matching(Map.of("app", "service-" + shape)), random.nextInt(3), Set.of()));
        }
        return b.build();
    }

    /**
     * The rescheduler's view of a generated cluster: every pod owned by a ReplicaSet per app (so it may
     * move), less the pods {@code drops} picks, node by node (a fresh predicate per node, so it may count).
     */
    public static ClusterSnapshot movable(ClusterSnapshot generated,
                                          Function<NodeInfo, Predicate<PodInfo>> drops) {
        ClusterSnapshot.Change change = generated.change();
        for (NodeInfo node : generated.nodes()) {
            Predicate<PodInfo> dropped = drops.apply(node);
            List<PodInfo> kept = new ArrayList<>();
            for (PodInfo pod : node.pods()) {
                if (dropped.test(pod)) {
                    change.removePod(pod.uid());
                    continue;
                }
                String app = pod.labels().get("app");
                PodInfo owned = pod.toBuilder().controller(new OwnerRef("ReplicaSet", app, "rs-" + app)).build();
                change.putPod(owned);
                kept.add(owned);
            }
            change.putNode(node.withPods(kept, node.nominatedPods()));
        }
        return change.build();
    }

    /** A pending pod that fits nowhere without preemption. */
    public static PodInfo pending(int podsPerNode) {
        return PodInfo.builder("pending-uid").name("pending").namespace("ns-0").priority(50_000)
                .requests(Resources.of("cpu", 300L * podsPerNode / 6, "memory", 2L << 30,
                        "ephemeral-storage", 4L << 30))
                .qos(QosClass.GUARANTEED).build();
    }

    private enum Workload {
        BATCH_POD("batch", BATCH, true, 60),
        SERVICE_POD("service", SERVICE, true, 25),
        SYSTEM_POD("system", SYSTEM, true, 5),
        IDLE_POD("batch", BATCH, false, 10);

        final String name;
        final int priority;
        final boolean requests;
        final int weight;

        Workload(String name, int priority, boolean requests, int weight) {
            this.name = name;
            this.priority = priority;
            this.requests = requests;
            this.weight = weight;
        }

        static Workload pick(Random random) {
            int r = random.nextInt(100);
            for (Workload w : values()) {
                r -= w.weight;
                if (r < 0) {
                    return w;
                }
            }
            return BATCH_POD;
        }
    }
}
