package dev.makeroom.core.room;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodColumns;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PriorityClassInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's {@link PodColumns} answer as its pods do: what each frees, each tie-break's cost, what
 * shields it from a pending pod, and its work lost under either price; and a scan read through the
 * columns is the scan of the pods.
 */
class PodColumnsProperties {

    private static final String[] CLASSES = {null, "batch", "keep"};
    /** Decided within the pods' starts and checkpoints, or after some have passed a short horizon. */
    private static final Instant NOW = Instant.ofEpochSecond(1_700_008_000L);
    private static final List<WorkPrice.At> PRICES = List.of(WorkPrice.DEFAULT.at(NOW, WorkRank.FIRST_TIE_BREAK),
            WorkPrice.of(Map.of("memory", 2.0, "nvidia.com/gpu", 7.5), java.time.Duration.ofMinutes(40)).at(NOW));

    @Property(tries = 300)
    void every_row_answers_as_its_pod(@ForAll long seed, @ForAll boolean aClassOptsOut) {
        Random random = new Random(seed);
        List<PodInfo> pods = pods(random, 1 + random.nextInt(12));
        ClusterSnapshot snapshot = snapshot(pods, aClassOptsOut);
        PodColumns columns = snapshot.node("n").columns();
        PodInfo pending = PodInfo.builder("pending").priority(random.nextInt(5) * 10).build();

        assertThat(columns.size()).isEqualTo(pods.size());
        for (int row = 0; row < pods.size(); row++) {
            PodInfo pod = snapshot.node("n").pods().get(row);
            assertThat(columns.priority(row)).isEqualTo(pod.priority());
            for (String resource : List.of(Resources.CPU, Resources.MEMORY)) {
                assertThat(columns.frees(row, resource)).as(resource).isEqualTo(pod.frees(resource));
            }
            for (TieBreak t : TieBreak.ALL) {
                assertThat(t.cost(columns, row)).as(t.name()).isEqualTo(t.cost(pod));
            }
            Eligibility preempting = Eligibility.toPreempt(pending, snapshot, QueueRules.off());
            assertThat(preempting.protectionOf(columns, row, pod)).isEqualTo(preempting.protectionOf(pod));
            assertThat(columns.rowOf(new String(pod.uid().toCharArray()))).as("the row of its UID").isEqualTo(row);
            for (WorkPrice.At price : PRICES) { // twice each: worked out, then kept
                assertThat(price.of(columns, row)).as("work lost").isEqualTo(price.of(pod));
                assertThat(price.of(columns, row)).as("work lost, kept").isEqualTo(price.of(pod));
            }
        }
        assertThat(columns.rowOf("not-" + pods.get(0).uid())).isEqualTo(-1);
        assertThat(columns.rowOf(pending.uid())).isEqualTo(-1);
    }

    /** Candidates are a node's pods but some (the ones out of reach); short of cpu, memory, pods or a GPU. */
    @Property(tries = 300)
    void a_scan_read_through_the_columns_is_the_scan_of_the_pods(@ForAll long seed) {
        Random random = new Random(seed);
        ClusterSnapshot snapshot = snapshot(pods(random, 1 + random.nextInt(14)), false);
        List<PodInfo> all = snapshot.node("n").pods();
        List<PodInfo> candidates = new ArrayList<>();
        int[] rows = new int[all.size()];
        for (int row = 0; row < all.size(); row++) {
            if (random.nextInt(4) > 0) {
                rows[candidates.size()] = row;
                candidates.add(all.get(row));
            }
        }
        List<Object> shortOf = new ArrayList<>(List.of("cpu", 1 + random.nextInt(6000)));
        for (String other : List.of("memory", "pods", "nvidia.com/gpu")) {
            if (random.nextBoolean()) {
                shortOf.addAll(List.of(other, 1 + random.nextInt(other.equals("memory") ? 6 << 20 : 3)));
            }
        }
        Resources deficit = Resources.of(shortOf.toArray());
        long ceiling = random.nextBoolean() ? Long.MAX_VALUE : random.nextInt(5) * 10;

        Read byPods = Read.of(CandidateScan.of(candidates, null, null, deficit, ceiling));
        Read byColumns = Read.of(CandidateScan.of(candidates, snapshot.node("n").columns(), rows, deficit, ceiling));

        assertThat(byColumns).isEqualTo(byPods);
    }

    /** What is read of a scan, taken out of it before the next scan refills it. */
    private record Read(int fewest, int fewestUpToCeiling, int lowest, List<Integer> priorities, List<Long> amounts,
                        List<Double> shares, List<Long> costs, List<Long> smallest, List<Long> work) {

        static Read of(CandidateScan scan) {
            List<Integer> priorities = new ArrayList<>();
            List<Long> amounts = new ArrayList<>();
            List<Double> shares = new ArrayList<>();
            List<Long> costs = new ArrayList<>();
            for (int i = 0; i < scan.size(); i++) {
                priorities.add(scan.priority(i));
                shares.add(scan.share(i));
                for (int d = 0; d < scan.deficit().size(); d++) {
                    amounts.add(scan.amount(d, i));
                }
                for (TieBreak t : TieBreak.ALL) {
                    costs.add(scan.cost(t, i));
                }
            }
            int k = Math.max(1, scan.size());
            long[] smallest = new long[TieBreak.COUNT * k];
            int held = scan.smallestCosts(k, smallest);
            List<Long> kept = new ArrayList<>();
            for (int t = 0; t < TieBreak.COUNT; t++) {
                for (int j = 0; j < held; j++) {
                    kept.add(smallest[t * k + j]);
                }
            }
            List<Long> work = new ArrayList<>();
            for (WorkPrice.At price : PRICES) {
                for (int i = 0; i < scan.size(); i++) {
                    work.add(scan.work(i, price));
                }
                work.add(scan.leastWork(k, price));
                work.add(scan.leastWork(1, price));
            }
            return new Read(scan.fewest(), scan.fewestUpToCeiling(), scan.lowestPriority(), priorities, amounts,
                    shares, costs, kept, work);
        }
    }

    /** Pods differing in everything the columns hold, and in a GPU the columns do not. */
    private static List<PodInfo> pods(Random random, int count) {
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Map<String, Long> requests = random.nextBoolean()
                    ? Map.of("cpu", (long) random.nextInt(3000), "memory", (long) random.nextInt(4 << 20))
                    : Map.of("cpu", (long) random.nextInt(3000), "nvidia.com/gpu", (long) random.nextInt(3));
            pods.add(PodInfo.builder("p" + i).name("p" + i).nodeName("n").resourceVersion(i)
                    .priority(random.nextInt(5) * 10).priorityClassName(CLASSES[random.nextInt(CLASSES.length)])
                    .requests(Resources.of(requests)).qos(QosClass.values()[random.nextInt(3)])
                    .terminating(random.nextInt(6) == 0).mirror(random.nextInt(6) == 0)
                    .optedOut(random.nextInt(6) == 0).originator(random.nextBoolean())
                    .terminationGracePeriodSeconds(random.nextInt(4) == 0 ? -1 : random.nextInt(120))
                    .startTime(random.nextInt(4) == 0 ? null : Instant.ofEpochSecond(1_700_000_000L + random.nextInt(10_000)))
                    .checkpointedAt(random.nextInt(3) == 0 ? Instant.ofEpochSecond(1_700_000_000L + random.nextInt(9_000)) : null)
                    .build());
        }
        return pods;
    }

    private static ClusterSnapshot snapshot(List<PodInfo> pods, boolean aClassOptsOut) {
        ClusterSnapshot.Builder cluster = ClusterSnapshot.builder().node("n", Map.of(), Resources.of("cpu", 64_000))
                .priorityClass(new PriorityClassInfo("batch", 10, false))
                .priorityClass(new PriorityClassInfo("keep", 20, aClassOptsOut));
        pods.forEach(cluster::pod);
        return cluster.build();
    }
}
