package dev.makeroom.bench;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.NodeVerdict;
import dev.makeroom.core.preemption.PdbMode;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.preemption.QueueRules;
import dev.makeroom.core.preemption.Strategy;
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
 * One whole preempt decision over N candidate nodes of a generated cluster, per strategy. Sample
 * time mode, so JMH reports p50/p99 per decision. At set-up it prints the share of node searches
 * proven optimal within the default 50 ms budget.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PreemptionBenchmark {

    @Param({"100", "500"})
    int nodes;

    @Param({"30", "110"})
    int podsPerNode;

    @Param({"MINIMAL", "KUBE_DEFAULT"})
    Strategy strategy;

    private ClusterSnapshot snapshot;
    private PodInfo pending;
    private List<Candidate> candidates;
    private PreemptionEngine engine;

    @Setup
    public void setUp() {
        snapshot = SyntheticCluster.generate(nodes, podsPerNode, 42);
        pending = SyntheticCluster.pending(podsPerNode);
        candidates = Candidate.onNodes(snapshot.nodes().stream().map(NodeInfo::name).sorted().toList());
        engine = new PreemptionEngine(new PreemptionSettings(strategy, AnswerMode.BEST, PdbMode.PREFER,
                Duration.ofMillis(50)), System::nanoTime);
        PreemptionDecision probe = engine.decide(snapshot, pending, candidates, QueueRules.off());
        long feasible = probe.verdicts().stream().filter(NodeVerdict::isFeasible).count();
        long proven = probe.verdicts().stream().filter(v -> v.isFeasible() && v.provenOptimal()).count();
        long states = probe.verdicts().stream().mapToLong(v -> v.stats().statesExplored()).sum();
        long dominated = probe.verdicts().stream().filter(NodeVerdict::dominated).count();
        System.out.printf("%n[%s nodes=%d pods=%d] feasible nodes %d, proven optimal %d (%.1f%%), dominated %d, "
                        + "states %d, answer %s%n", strategy, nodes, podsPerNode, feasible, proven,
                feasible == 0 ? 0.0 : 100.0 * proven / feasible, dominated, states, probe.detail());
    }

    @Benchmark
    public PreemptionDecision decide() {
        return engine.decide(snapshot, pending, candidates, QueueRules.off());
    }
}
