package dev.makeroom.bench;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Generated single nodes of full size (40 to 110 pods) in the shapes where a victim search is
 * hardest, for the exactness properties (against an exact solver) and the benchmark that records
 * how often the search proves its answer. Each node is plain data ({@link Node}) first, so an oracle
 * can read it without going through makeroom's model, and a snapshot second.
 */
public final class FullSizeNodes {

    /** The resources, in base units: millicores, bytes, devices. */
    public static final String[] DIMS = {"cpu", "memory", "nvidia.com/gpu"};
    public static final int PENDING_PRIORITY = 1_000_000;
    public static final Instant EPOCH = Instant.parse("2026-11-01T00:00:00Z");
    /**
     * A moment at which every generated pod has run longer than the default work price's one-day horizon
     * (pods start within ten hours of {@link #EPOCH}): each loses a day of its weighted requests.
     */
    public static final Instant PAST_HORIZON = EPOCH.plus(java.time.Duration.ofDays(2));
    private static final long MI = 1L << 20;

    public enum Shape {
        /** Replicas of a few small templates under PDBs allowing 0 to 3, one binding resource (cpu). */
        REPLICAS_UNDER_PDBS,
        /** Enough small low-priority pods, and big higher-priority pods that fit the need but cost more. */
        HIGHER_PRIORITY_IN_REACH,
        /** Workloads of cpu-heavy and memory-heavy pods competing, cpu and memory (sometimes gpus) binding together. */
        SEVERAL_RESOURCES,
        /** All of it at once: workloads of many priorities, opted-out and BestEffort pods, nodes at their pod limit. */
        MIXED
    }

    /** A running pod: amounts indexed like {@link #DIMS}; {@code budget} indexes the node's budgets, -1 for none. */
    public record Pod(int priority, long[] amounts, int budget, boolean optedOut, QosClass qos, int graceSeconds,
                      int startMinute) {
    }

    /** One node and a pending pod that must make room on it. */
    public record Node(Shape shape, long seed, List<Pod> pods, long[] allocatable, int podLimit, int[] allowed,
                       long[] pendingRequests) {

        /** The node as makeroom sees it: one node {@code n}, each budget selecting its pods by label. */
        public ClusterSnapshot snapshot() {
            ClusterSnapshot.Builder b = ClusterSnapshot.builder();
            Map<String, Long> capacity = new HashMap<>();
            for (int d = 0; d < DIMS.length; d++) {
                capacity.put(DIMS[d], allocatable[d]);
            }
            capacity.put(Resources.PODS, (long) podLimit);
            b.node("n", Map.of("kubernetes.io/hostname", "n"), Resources.of(capacity));
            for (int i = 0; i < pods.size(); i++) {
                Pod p = pods.get(i);
                Map<String, Long> requests = new HashMap<>();
                for (int d = 0; d < DIMS.length; d++) {
                    if (p.amounts()[d] > 0) {
                        requests.put(DIMS[d], p.amounts()[d]);
                    }
                }
                b.pod(PodInfo.builder("p" + i).name("p" + i).nodeName("n").priority(p.priority())
                        .requests(Resources.of(requests)).qos(p.qos()).optedOut(p.optedOut())
                        .labels(p.budget() < 0 ? Map.of() : Map.of("budget", "b" + p.budget()))
                        .terminationGracePeriodSeconds(p.graceSeconds())
                        .startTime(EPOCH.plusSeconds(60L * p.startMinute())).resourceVersion(10 + i).build());
            }
            for (int k = 0; k < allowed.length; k++) {
                b.budget(new DisruptionBudget("default", "b" + k, LabelSelector.matching(Map.of("budget", "b" + k)),
                        allowed[k], Set.of()));
            }
            return b.build();
        }

        public PodInfo pending() {
            Map<String, Long> requests = new HashMap<>();
            for (int d = 0; d < DIMS.length; d++) {
                if (pendingRequests[d] > 0) {
                    requests.put(DIMS[d], pendingRequests[d]);
                }
            }
            return PodInfo.builder("pending").name("pending").priority(PENDING_PRIORITY)
                    .requests(Resources.of(requests)).qos(QosClass.GUARANTEED).build();
        }
    }

    private FullSizeNodes() {
    }

    /** A node of {@code size} pods in {@code shape}, the same for the same seed. */
    public static Node generate(Shape shape, int size, long seed) {
        return new Generation(shape, size, seed).node();
    }

    /** Builds one node: pods first, then capacity with a little slack, then a pending pod needing some of it. */
    private static final class Generation {
        private final Shape shape;
        private final int size;
        private final long seed;
        private final Random random;
        private final List<Pod> pods = new ArrayList<>();
        private final List<Integer> allowed = new ArrayList<>();

        Generation(Shape shape, int size, long seed) {
            this.shape = shape;
            this.size = size;
            this.seed = seed;
            this.random = new Random(seed * 31 + shape.ordinal());
        }

        Node node() {
            switch (shape) {
                case REPLICAS_UNDER_PDBS -> replicasUnderPdbs();
                case HIGHER_PRIORITY_IN_REACH -> higherPriorityInReach();
                case SEVERAL_RESOURCES -> severalResources();
                case MIXED -> mixed();
            }
            long[] used = new long[DIMS.length];
            for (Pod p : pods) {
                for (int d = 0; d < DIMS.length; d++) {
                    used[d] += p.amounts()[d];
                }
            }
            long[] slack = {50L * random.nextInt(4), MI * 64 * random.nextInt(4), 0};
            long[] allocatable = new long[DIMS.length];
            long[] pending = new long[DIMS.length];
            double[] share = needShares();
            for (int d = 0; d < DIMS.length; d++) {
                allocatable[d] = used[d] + slack[d];
                // binding resources need a share of what the pods use; the others ask for what is free
                pending[d] = share[d] > 0 ? slack[d] + Math.max(1, (long) (used[d] * share[d])) : slack[d] / 2;
            }
            boolean atLimit = shape == Shape.MIXED ? random.nextInt(3) == 0 : random.nextInt(6) == 0;
            int podLimit = pods.size() + (atLimit ? 0 : 1 + random.nextInt(5));
            return new Node(shape, seed, List.copyOf(pods), allocatable, podLimit,
                    allowed.stream().mapToInt(Integer::intValue).toArray(), pending);
        }

        /** What share of the pods' use of each resource the pending pod needs freed (0: not binding). */
        private double[] needShares() {
            double low = 0.1 + 0.3 * random.nextDouble();
            return switch (shape) {
                case REPLICAS_UNDER_PDBS -> new double[] {low, 0, 0};
                // the low-priority pods hold about 40% of the cpu: the need stays within their reach
                case HIGHER_PRIORITY_IN_REACH -> new double[] {0.05 + 0.3 * random.nextDouble(), 0, 0};
                case SEVERAL_RESOURCES -> new double[] {low, 0.1 + 0.3 * random.nextDouble(),
                        random.nextInt(3) == 0 ? 0.3 : 0};
                case MIXED -> new double[] {low, random.nextBoolean() ? 0.1 + 0.3 * random.nextDouble() : 0,
                        random.nextInt(4) == 0 ? 0.25 : 0};
            };
        }

        private int budget() {
            allowed.add(random.nextInt(4));
            return allowed.size() - 1;
        }

        private void replicasUnderPdbs() {
            int templates = 3 + random.nextInt(6);
            List<Pod> shapes = new ArrayList<>();
            for (int t = 0; t < templates; t++) {
                shapes.add(pod(10 * (1 + random.nextInt(3)), 50L * (2 + random.nextInt(9)), MI * 64 * (2 + random.nextInt(7)),
                        0, random.nextInt(10) < 7 ? budget() : -1));
            }
            while (pods.size() < size) {
                if (random.nextInt(10) == 0) { // a few big singletons among the replicas
                    add(pod(10 * (1 + random.nextInt(3)), 50L * (20 + random.nextInt(40)), MI * 512, 0, -1));
                } else {
                    add(shapes.get(random.nextInt(templates)));
                }
            }
        }

        private void higherPriorityInReach() {
            int lowBudget = budget();
            while (pods.size() < size) {
                if (random.nextInt(10) < 6) {
                    add(pod(10, 50L * (2 + random.nextInt(5)), MI * 128, 0, random.nextInt(4) == 0 ? lowBudget : -1));
                } else {
                    add(pod(50 + 10 * random.nextInt(5), 50L * (20 + random.nextInt(20)), MI * 256, 0,
                            random.nextInt(3) == 0 ? budget() : -1));
                }
            }
        }

        private void severalResources() {
            while (pods.size() < size) {
                int priority = 10 * (1 + random.nextInt(3));
                int budget = random.nextInt(3) < 2 ? budget() : -1;
                switch (random.nextInt(3)) {
                    case 0 -> workload(pod(priority, 50L * (10 + random.nextInt(30)), MI * 64 * (2 + random.nextInt(6)), 0, budget));
                    case 1 -> workload(pod(priority, 50L * (2 + random.nextInt(4)), MI * 512 * (2 + random.nextInt(12)), 0, budget));
                    default -> workload(pod(priority, 50L * (4 + random.nextInt(12)), MI * 256 * (2 + random.nextInt(8)),
                            random.nextInt(4) == 0 ? 1 : 0, budget));
                }
            }
        }

        private void mixed() {
            while (pods.size() < size) {
                int priority = 10 * (1 + random.nextInt(6));
                int budget = random.nextInt(2) == 0 ? budget() : -1;
                int kind = random.nextInt(20);
                if (kind < 2) {
                    workload(new Pod(priority, new long[DIMS.length], budget, false, QosClass.BEST_EFFORT, grace(), 0));
                } else if (kind == 2) {
                    workload(new Pod(priority, amounts(50L * (2 + random.nextInt(20)), MI * 128 * (1 + random.nextInt(8)), 0),
                            budget, true, QosClass.GUARANTEED, grace(), 0));
                } else {
                    workload(pod(priority, 50L * (2 + random.nextInt(30)), MI * 128 * (1 + random.nextInt(24)),
                            random.nextInt(12) == 0 ? 1 : 0, budget));
                }
            }
        }

        /**
         * Replicas of one workload, as real nodes hold them: a third run alone, the others two to
         * sixteen copies of one template (its PDB, if any, covering them all).
         */
        private void workload(Pod template) {
            int roll = random.nextInt(10);
            int replicas = roll < 3 ? 1 : roll < 7 ? 2 + random.nextInt(4) : 6 + random.nextInt(11);
            for (int r = 0; r < replicas && pods.size() < size; r++) {
                add(template);
            }
        }

        private Pod pod(int priority, long cpu, long memory, long gpu, int budget) {
            QosClass qos = random.nextBoolean() ? QosClass.GUARANTEED : QosClass.BURSTABLE;
            return new Pod(priority, amounts(cpu, memory, gpu), budget, false, qos, grace(), minute());
        }

        private static long[] amounts(long cpu, long memory, long gpu) {
            return new long[] {cpu, memory, gpu};
        }

        private int grace() {
            return random.nextInt(4) == 0 ? 30 : 0;
        }

        private int minute() {
            return random.nextInt(600);
        }

        /** A pod like {@code template}, started at its own time (replicas differ only in age). */
        private void add(Pod template) {
            pods.add(new Pod(template.priority(), template.amounts(), template.budget(), template.optedOut(),
                    template.qos(), template.graceSeconds(), minute()));
        }
    }
}
