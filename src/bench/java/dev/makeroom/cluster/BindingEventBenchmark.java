package dev.makeroom.cluster;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.makeroom.bench.SyntheticObjects;
import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.filter.FilterVerdict;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.RequestedNodes;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.DecisionOutcome;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionPipeline;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.core.score.AvoidList;
import dev.makeroom.core.score.ShieldScorePolicy;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
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
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * What one binding costs makeroom as the cluster grows: a pod bound to a node arrives as a watch event,
 * the live view publishes a new snapshot, and the scheduler's next filter and prioritize calls (500
 * names) run on it. At 500, 5,000 and 15,000 nodes of 30 pods, through the live view's own state code
 * ({@link LiveClusterState}). Each call alternates one pod between bound and pending, so the cluster
 * keeps its size. {@code event}: the event and the new snapshot; {@code eventThenCalls}: and the first
 * calls on it (the node table brought up to date); {@code callsWithoutChange}: the same calls on an
 * unchanged snapshot; {@code eventThenPreempt} / {@code preemptWithoutChange}: a preempt decision over the
 * same 500 candidate nodes for a 12-cpu pod that must evict (checked at set-up). Run with {@code -prof gc}
 * for the bytes each allocates. The calls' outcome is checked: every name asked passes the filter and is
 * scored.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(java.util.concurrent.TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
public class BindingEventBenchmark {

    private static final int ASKED = 500;
    private static final int MOVING = 1_000;

    @Param({"500", "5000", "15000"})
    int nodes;

    private LiveClusterState state;
    private ClusterSnapshot snapshot;
    private final List<ClusterEvent> bindings = new ArrayList<>(); // bound, pending, bound, pending, ...
    private int next;
    private List<String> asked;
    private PodInfo pending;
    private int[] scores;
    private final FilterPolicy filter = new FilterPolicy();
    private final ShieldScorePolicy score = new ShieldScorePolicy();
    private final PreemptionPipeline pipeline = PreemptionPipeline.of(
            new PreemptionEngine(PreemptionSettings.DEFAULTS, System::nanoTime));
    private PodInfo preemptor;
    private List<Candidate> candidates;

    @Setup
    public void setUp() {
        state = new LiveClusterState(new EvictionMemory(Duration.ofMinutes(10), Ticker.systemTicker()));
        Random random = new Random(7);
        long rv = 1;
        List<String> names = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            Node node = SyntheticObjects.node(String.format("node-%05d", n), rv++);
            names.add(node.getMetadata().getName());
            state.apply(new ClusterEvent(ClusterEvent.Kind.NODE, false, node));
            for (int i = 0; i < 30; i++) {
                state.apply(new ClusterEvent(ClusterEvent.Kind.POD, false,
                        LeanPod.of(SyntheticObjects.pod(node.getMetadata().getName(), i, random, rv++))));
            }
            if (n % 500 == 499) {
                state.publish();
            }
        }
        for (int k = 0; k < MOVING; k++) {
            Pod bound = SyntheticObjects.pod(names.get(random.nextInt(nodes)), 1_000 + k, random, rv++);
            Pod unbound = new PodBuilder(bound).editSpec().withNodeName(null).endSpec().editStatus().withPhase("Pending")
                    .endStatus().build();
            bindings.add(new ClusterEvent(ClusterEvent.Kind.POD, false, LeanPod.of(bound)));
            bindings.add(new ClusterEvent(ClusterEvent.Kind.POD, false, LeanPod.of(unbound)));
            state.apply(bindings.get(bindings.size() - 1));
        }
        snapshot = state.publish();
        Collections.shuffle(names, new Random(11));
        asked = names.subList(0, Math.min(ASKED, names.size()));
        pending = LeanPod.of(new PodBuilder(SyntheticObjects.pod(names.get(0), 5_000, random, rv))
                .editSpec().withNodeName(null).endSpec().build()).info();
        scores = new int[asked.size()];
        checkCalls();
        preemptor = LeanPod.of(new PodBuilder(SyntheticObjects.pod(names.get(0), 5_001, random, rv + 1))
                .editSpec().withNodeName(null).withPriority(10_000).editFirstContainer().editResources()
                .addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("12")).endResources().endContainer()
                .endSpec().build()).info();
        candidates = Candidate.onNodes(asked);
        PreemptionDecision probe = preempt();
        if (probe.outcome() != DecisionOutcome.PREEMPT) {
            throw new IllegalStateException("the preemptor must preempt: " + probe.outcome() + " " + probe.detail());
        }
    }

    /** One binding (or its undoing): the watch event applied and a new snapshot published. */
    @Benchmark
    public ClusterSnapshot event() {
        state.apply(bindings.get(next));
        next = (next + 1) % bindings.size();
        snapshot = state.publish();
        return snapshot;
    }

    /** One binding, then filter's and prioritize's work on the new snapshot. */
    @Benchmark
    public int eventThenCalls() {
        event();
        return calls();
    }

    /** The same calls on a snapshot no event changed since the last call. */
    @Benchmark
    public int callsWithoutChange() {
        return calls();
    }

    /** One binding, then a preempt decision over 500 candidates on the new snapshot (the first after the change). */
    @Benchmark
    public PreemptionDecision eventThenPreempt() {
        event();
        return preempt();
    }

    /** The same decision on a snapshot no event changed since the last. */
    @Benchmark
    public PreemptionDecision preemptWithoutChange() {
        return preempt();
    }

    private PreemptionDecision preempt() {
        return pipeline.decide(new PreemptionPipeline.Request(snapshot, preemptor, candidates, QueueRules.off(),
                Instant.EPOCH)).decision();
    }

    private int calls() {
        NodeTable table = snapshot.table();
        RequestedNodes nodes = RequestedNodes.resolve(table, asked);
        FilterVerdict verdict = filter.filter(snapshot, pending, nodes.names(), null, Instant.EPOCH);
        score.scoreInto(snapshot, pending, nodes, AvoidList.NONE, scores);
        return verdict.passed().size() + scores[0];
    }

    private void checkCalls() {
        NodeTable table = snapshot.table();
        RequestedNodes nodes = RequestedNodes.resolve(table, asked);
        if (filter.filter(snapshot, pending, nodes.names(), null, Instant.EPOCH).passed().size() != asked.size()) {
            throw new IllegalStateException("the filter refused a node: nothing of makeroom's concerns this pod");
        }
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.row(i) < 0) {
                throw new IllegalStateException(nodes.name(i) + " is not in the snapshot's table");
            }
        }
    }
}
