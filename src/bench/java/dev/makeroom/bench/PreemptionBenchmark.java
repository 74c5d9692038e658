package dev.makeroom.bench;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.core.room.Strategy;
import dev.makeroom.mapping.PodMapper;
import dev.makeroom.mapping.SnapshotMapper;
import io.fabric8.kubernetes.api.model.Pod;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One whole preempt decision in the core (no HTTP or JSON) over 500 candidate nodes of a cluster of
 * full nodes ({@link FullNodes}), as the scheduler asks it: each candidate with the victims the
 * scheduler named there. Sample time mode, so JMH reports p50/p99 per decision. At set-up it prints
 * the outcome and how the candidates ended ({@link PreemptOutcomes}), and refuses to run a body that
 * does not preempt on most candidates: {@code body=FITS_ANYWAY} is the labelled exception, a pod that
 * fits without evicting anything.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PreemptionBenchmark {

    @Param({"500", "5000"})
    int nodes;

    @Param({"30", "110"})
    int podsPerNode;

    @Param({"MINIMAL", "KUBE_DEFAULT"})
    Strategy strategy;

    @Param({"PREEMPTS", "FITS_ANYWAY"})
    PreemptBody body;

    private ClusterSnapshot snapshot;
    private PodInfo pending;
    private List<Candidate> candidates;
    private PreemptionEngine engine;

    @Setup
    public void setUp() {
        FullNodes cluster = new FullNodes(nodes, podsPerNode);
        snapshot = SnapshotMapper.toSnapshot(cluster.objects());
        Pod preemptor = body.preemptor();
        pending = PodMapper.toCore(preemptor, snapshot::priorityValue);
        candidates = cluster.candidates(FullNodes.CANDIDATES, body).stream()
                .map(n -> cluster.candidate(n, body)).toList();
        engine = new PreemptionEngine(new PreemptionSettings(strategy, AnswerMode.BEST, PdbMode.PREFER,
                Duration.ofMillis(50)), System::nanoTime);
        PreemptionDecision probe = engine.decide(snapshot, pending, candidates, QueueRules.off());
        PreemptOutcomes outcomes = PreemptOutcomes.of(probe);
        System.out.printf("%n[%s %s nodes=%d pods=%d] %s%n", body, strategy, nodes, podsPerNode, outcomes);
        body.check(outcomes);
    }

    @Benchmark
    public PreemptionDecision decide() {
        return engine.decide(snapshot, pending, candidates, QueueRules.off());
    }
}
