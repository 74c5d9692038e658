package dev.makeroom.bench;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.RoundInputs;
import dev.makeroom.core.rounds.SettingsBuilder;
import dev.makeroom.core.rounds.defragment.DefragmentSettings;
import dev.makeroom.core.rounds.planner.ReschedulePlanner;
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
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One rescheduler round of defragmentation alone on the synthetic cluster (5,000 nodes × 30 pods),
 * its free room scattered: pods taken off each node until it has 2.5 cpus free (of 9), so every node
 * has some room and none enough for the {@code pending} pods waiting, each asking for 0.3 cpus more
 * than the most free anywhere (in {@code shapes} sizes), at service priority; moving a few pods off a
 * node would do.
 * Every pod belongs to a ReplicaSet per app.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DefragmentBenchmark {

    /** At least this much cpu free on every node; a pending pod asks for a little more than the most free anywhere. */
    private static final long SCATTERED = 2500;

    @Param({"1", "10", "1000"})
    int pending;

    /**
     * How many shapes the pending pods come in (requests 10 m apart): pods of one shape share the
     * search's work, so 1 is a Job's or a scale-up's pods, 50 a mix; a Job of its own each, either way.
     */
    @Param({"1", "50"})
    int shapes;

    private ClusterSnapshot snapshot;
    private RescheduleSettings settings;
    private final Instant now = Instant.parse("2026-11-23T12:00:00Z");

    @Setup
    public void setUp() {
        ClusterSnapshot scattered = SyntheticCluster.movable(SyntheticCluster.generate(5000, 30, 42), node -> {
            long[] free = {node.allocatable().get("cpu") - node.requested().get("cpu")};
            return pod -> { // pods go until the node has a little less than a pending pod asks
                boolean drop = free[0] < SCATTERED;
                free[0] += drop ? pod.requests().get("cpu") : 0;
                return drop;
            };
        });
        long most = scattered.nodes().stream().mapToLong(n -> n.allocatable().get("cpu") - n.requested().get("cpu"))
                .max().orElse(0);
        ClusterSnapshot.Change change = scattered.change();
        long asked = most + 300;
        for (int p = 0; p < pending; p++) {
            change.putPod(PodInfo.builder("waiting-" + p).name("waiting-" + p).namespace("ns-0")
                    .priority(SyntheticCluster.SERVICE).requests(Resources.of("cpu", asked + 10L * (p % shapes),
                            "memory", 2L << 30))
                    .unschedulableSince(now.minusSeconds(300))
                    .controller(new OwnerRef("Job", "job-" + p, "job-uid-" + p)).build());
        }
        snapshot = change.build();
        settings = SettingsBuilder.limits(new RescheduleSettings.MoveLimits(100, 5, 100, 100, 100))
                .defragment(new DefragmentSettings(true, Duration.ofSeconds(30), Set.of("default-scheduler"),
                        Duration.ofMinutes(2), 3, Duration.ofSeconds(1))).build();
        ReschedulePlan probe = plan();
        System.out.printf("%n[pending=%d, shapes=%d] most free cpu on a node %d m, asked %d m; %d rooms, %d moves, %d not helped %s%n",
                pending, shapes, most, asked, probe.rooms().size(), probe.moves().size(), probe.skipped().size(),
                probe.rooms().stream().map(r -> r.moves().size() + (r.proven() ? "" : "?")).toList());
        probe.skipped().stream().limit(3).forEach(s -> System.out.println("  not helped: " + s.pod() + " " + s.reason()));
    }

    @Benchmark
    public ReschedulePlan plan() {
        return ReschedulePlanner.plan(new RoundInputs(snapshot, settings, List.of(), now, PreemptionCheck.NEVER,
                System::nanoTime, Set.of(), Set.of()));
    }
}
