package dev.makeroom.bench;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.GangLoss;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionObjective;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.room.WorkPrice;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.core.room.Strategy;
import dev.makeroom.mapping.PodMapper;
import dev.makeroom.mapping.SnapshotMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
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
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One whole preempt decision in the core (no HTTP or JSON) over 500 candidate nodes of a cluster of
 * full nodes ({@link FullNodes}), as the scheduler asks it: each candidate with the victims the
 * scheduler named there. Sample time mode, so JMH reports p50/p99 per decision. At set-up it prints
 * the outcome and how the candidates ended ({@link PreemptOutcomes}), and refuses to run a body that
 * does not preempt on most candidates: {@code body=FITS_ANYWAY} is the labelled exception, a pod that
 * fits without evicting anything. {@code gangs=FILLERS}: three of each node's fillers belong to a
 * coscheduling gang spanning eight nodes that needs every member, so every candidate is decided by
 * gang scenarios (the cheapest sets avoid the gangs and cost what they cost without them).
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

    /** Whether some fillers are gang members. */
    public enum Gangs { NONE, FILLERS }

    @Param({"NONE"})
    Gangs gangs;

    /** The objective minimised. */
    @Param({"KUBERNETES"})
    PreemptionObjective objective;

    /** When the running pods started: all at once, or over the three days before the decision. */
    public enum Starts { ALIKE, APART }

    /**
     * {@code APART}: every running pod starts at a seeded moment of the three days before the decision,
     * two in five say they checkpointed in the last hour, so work lost tells them apart.
     */
    @Param({"ALIKE"})
    Starts starts;

    /** When the decisions are made, for the work lost: three days after the first filler could start. */
    static final Instant DECIDED_AT = Instant.parse("2026-11-23T08:00:00Z");

    private ClusterSnapshot snapshot;
    private PodInfo pending;
    private List<Candidate> candidates;
    private PreemptionEngine engine;

    @Setup
    public void setUp() {
        FullNodes cluster = new FullNodes(nodes, podsPerNode);
        List<HasMetadata> objects = cluster.objects();
        if (gangs == Gangs.FILLERS) {
            inGangs(objects);
        }
        if (starts == Starts.APART) {
            startedApart(objects);
        }
        snapshot = SnapshotMapper.toSnapshot(objects);
        Pod preemptor = body.preemptor();
        pending = PodMapper.toCore(preemptor, snapshot::priorityValue);
        candidates = cluster.candidates(FullNodes.CANDIDATES, body).stream()
                .map(n -> cluster.candidate(n, body)).toList();
        engine = new PreemptionEngine(new PreemptionSettings(strategy, AnswerMode.BEST, PdbMode.PREFER,
                Duration.ofMillis(50)).with(objective), System::nanoTime, () -> DECIDED_AT);
        PreemptionDecision probe = engine.decide(snapshot, pending, candidates, QueueRules.off());
        PreemptOutcomes outcomes = PreemptOutcomes.of(probe);
        System.out.printf("%n[%s %s %s starts %s nodes=%d pods=%d] %s; %.1f h of work lost%n", body, strategy, objective,
                starts, nodes, podsPerNode, outcomes, WorkPrice.hours(probe.workLost()));
        body.check(outcomes);
        if (gangs == Gangs.FILLERS && body == PreemptBody.PREEMPTS) { // the gangs are there, and the answer spares them
            long withGangs = candidates.stream().filter(c -> snapshot.node(c.node()).pods().stream()
                    .anyMatch(p -> p.gang() != null)).count();
            List<GangLoss> broken = GangLoss.of(snapshot, probe.chosen().get(0).victims().victims());
            System.out.printf("candidates holding gang members: %d; gangs the answer breaks: %s%n", withGangs, broken);
            if (withGangs < candidates.size() / 2 || !broken.isEmpty()) {
                throw new IllegalStateException("the gang case is not measured: " + withGangs + " candidates with gangs, "
                        + broken + " broken");
            }
        }
    }

    /** Every running pod starts at a seeded moment of the three days before the decision; two in five checkpointed since. */
    private static void startedApart(List<HasMetadata> objects) {
        Random random = new Random(69);
        for (HasMetadata object : objects) {
            if (object instanceof Pod pod && pod.getSpec().getNodeName() != null) {
                Instant start = DECIDED_AT.minusSeconds(600 + random.nextInt(3 * 86_400 - 600));
                pod.getStatus().setStartTime(start.toString());
                if (random.nextInt(5) < 2) {
                    Instant saved = DECIDED_AT.minusSeconds(random.nextInt(3_600));
                    Map<String, String> annotations = new HashMap<>();
                    if (pod.getMetadata().getAnnotations() != null) {
                        annotations.putAll(pod.getMetadata().getAnnotations());
                    }
                    annotations.put("makeroom.dev/checkpointed-at", (saved.isAfter(start) ? saved : start).toString());
                    pod.getMetadata().setAnnotations(annotations);
                }
            }
        }
    }

    /** Slots 2–4 (fillers) of every node join gang {@code train-k}, k the node's index over 8. */
    private static void inGangs(List<HasMetadata> objects) {
        Map<String, Integer> nodeIndex = new HashMap<>();
        for (HasMetadata object : objects) {
            if (object instanceof Pod pod) {
                String name = pod.getMetadata().getName();
                int slot = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
                int node = nodeIndex.computeIfAbsent(pod.getSpec().getNodeName(), k -> nodeIndex.size());
                if (slot >= 2 && slot <= 4) {
                    pod.getMetadata().getLabels().put("scheduling.x-k8s.io/pod-group", "train-" + node / 8);
                }
            }
        }
    }

    @Benchmark
    public PreemptionDecision decide() {
        return engine.decide(snapshot, pending, candidates, QueueRules.off());
    }
}
