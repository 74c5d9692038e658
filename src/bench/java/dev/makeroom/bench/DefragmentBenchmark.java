package dev.makeroom.bench;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.reschedule.PreemptionCheck;
import dev.makeroom.core.reschedule.ReschedulePlan;
import dev.makeroom.core.reschedule.ReschedulePlanner;
import dev.makeroom.core.reschedule.RescheduleSettings;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One rescheduler round of defragmentation alone on the synthetic cluster (5,000 nodes × 30 pods),
 * its free room scattered: about a sixth of each node's pods gone, so every node has some room and
 * none enough for the {@code pending} pods waiting, each asking for 4 cpus at service priority.
 * Every pod belongs to a ReplicaSet per app.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DefragmentBenchmark {

    @Param({"1", "10"})
    int pending;

    private ClusterSnapshot snapshot;
    private RescheduleSettings settings;
    private final Instant now = Instant.parse("2026-11-23T12:00:00Z");

    @Setup
    public void setUp() {
        ClusterSnapshot generated = SyntheticCluster.generate(5000, 30, 42);
        Random random = new Random(7);
        ClusterSnapshot.Change change = generated.change();
        for (NodeInfo node : generated.nodes()) {
            List<PodInfo> kept = new ArrayList<>();
            for (PodInfo pod : node.pods()) {
                if (random.nextInt(6) == 0) {
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
        for (int p = 0; p < pending; p++) {
            change.putPod(PodInfo.builder("waiting-" + p).name("waiting-" + p).namespace("ns-0")
                    .priority(SyntheticCluster.SERVICE).requests(Resources.of("cpu", 4000, "memory", 2L << 30))
                    .unschedulableSince(now.minusSeconds(300))
                    .controller(new OwnerRef("Job", "job-" + p, "job-uid-" + p)).build());
        }
        snapshot = change.build();
        settings = new RescheduleSettings(new RescheduleSettings.Rebalance(false, Map.of(), Map.of()), false,
                new RescheduleSettings.MoveLimits(100, 5, 100, 100, 100), false, 0,
                new RescheduleSettings.Defragment(true, Duration.ofSeconds(30), Set.of("default-scheduler"),
                        Duration.ofMinutes(2), 3, Duration.ofSeconds(1)));
        long most = snapshot.nodes().stream().mapToLong(n -> n.allocatable().get("cpu") - n.requested().get("cpu"))
                .max().orElse(0);
        ReschedulePlan probe = plan();
        System.out.printf("%n[pending=%d] most free cpu on a node %d m; %d rooms, %d moves, %d not helped %s%n",
                pending, most, probe.rooms().size(), probe.moves().size(), probe.skipped().size(),
                probe.rooms().stream().map(r -> r.moves().size() + (r.proven() ? "" : "?")).toList());
    }

    @Benchmark
    public ReschedulePlan plan() {
        return ReschedulePlanner.plan(snapshot, settings, List.of(), now, PreemptionCheck.NEVER, System::nanoTime);
    }
}
