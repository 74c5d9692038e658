package dev.makeroom.bench;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.Rounds;
import dev.makeroom.core.rounds.SettingsBuilder;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;
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

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One rescheduler planning round on the synthetic cluster (5,000 nodes × 30 pods, nearly full) after a
 * scale-up: every tenth node joined empty. Every pod belongs to a ReplicaSet per app. {@code perRound}
 * is the round's eviction limit: 10 (the default) or 1,000 (a stress: the planner keeps looking).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ReschedulePlannerBenchmark {

    @Param({"10", "1000"})
    int perRound;

    private ClusterSnapshot snapshot;
    private RescheduleSettings settings;
    private final Instant now = Instant.parse("2026-11-23T12:00:00Z");

    @Setup
    public void setUp() {
        // after a scale-up: every tenth node joined empty
        snapshot = SyntheticCluster.movable(SyntheticCluster.generate(5000, 30, 42),
                node -> pod -> Integer.parseInt(node.name().substring("node-".length())) % 10 == 0);
        settings = SettingsBuilder.limits(new RescheduleSettings.MoveLimits(perRound, 2, perRound, perRound, perRound))
                .rebalance(new RebalanceSettings(true, Map.of("cpu", 30, "memory", 30),
                Map.of("cpu", 80, "memory", 80))).affinity().build();
        ReschedulePlan probe = plan();
        System.out.printf("%n[perRound=%d] %d moves, %d pods left in place%n", perRound, probe.moves().size(),
                probe.skipped().size());
    }

    @Benchmark
    public ReschedulePlan plan() {
        return Rounds.plan(snapshot, settings, List.of(), now);
    }
}
