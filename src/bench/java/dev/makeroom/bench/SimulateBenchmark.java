package dev.makeroom.bench;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.placement.Filter;
import dev.makeroom.core.placement.Placement;
import dev.makeroom.core.placement.PlacementSurvey;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.core.room.Strategy;
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
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What {@code /debug/simulate} computes for one pod, in process: every filter over every node
 * ({@link PlacementSurvey}) and then preempt over the nodes where evicting pods could help. The cluster
 * is {@link SyntheticCluster}'s, its nodes in three zones, and a tenth of its pods carry required
 * anti-affinity (by node or by zone) or a zone topology spread, so the engine's pre-filters have pods
 * to count. The pending pod spreads by zone and keeps apart from its app by node. At set-up it prints
 * how many nodes each filter refused and fails unless spread, anti-affinity and resources each refused
 * some: the case it is named for.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SimulateBenchmark {

    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final Instant NOW = Instant.parse("2026-11-25T00:00:00Z");

    @Param({"5000"})
    int nodes;

    @Param({"30"})
    int podsPerNode;

    private ClusterSnapshot snapshot;
    private PodInfo pending;
    private PreemptionEngine engine;
    private List<String> candidates;

    @Setup
    public void setUp() {
        snapshot = withInterPodConstraints(SyntheticCluster.generate(nodes, podsPerNode, 42));
        LabelSelector web = LabelSelector.matching(Map.of("app", "web"));
        pending = PodInfo.builder("pending-web").name("web-new").namespace("ns-0").priority(SyntheticCluster.SERVICE)
                .requests(Resources.of("cpu", 200, "memory", 256L << 20)).labels(Map.of("app", "web"))
                .antiAffinity(List.of(new PodAffinityTerm(web, Set.of(), false, PodAffinityTerm.HOSTNAME)))
                .constraints(new SchedulingConstraints(List.of(),
                        List.of(new SpreadConstraint(1, ZONE, web, 1, true)), List.of(), List.of()))
                .build();
        engine = new PreemptionEngine(new PreemptionSettings(Strategy.MINIMAL, AnswerMode.BEST, PdbMode.PREFER,
                Duration.ofMillis(50)), System::nanoTime);
        Map<Filter, Integer> refused = new EnumMap<>(Filter.class);
        PodPlacement placement = PodPlacement.of(new SnapshotState(snapshot, NOW), pending);
        for (NodeInfo node : snapshot.nodes()) {
            Placement answer = placement.on(node);
            if (!answer.fits()) {
                refused.merge(answer.filter(), 1, Integer::sum);
            }
        }
        PlacementSurvey survey = PlacementSurvey.of(new SnapshotState(snapshot, NOW), pending, Optional.empty());
        candidates = survey.preemptionCandidates();
        System.out.printf("%n[simulate nodes=%d pods=%d] fits %d, refused by %s; preempt over %d nodes: %s%n", nodes,
                podsPerNode, survey.fits().size(), refused, survey.preemptionCandidates().size(), simulate().detail());
        for (Filter needed : List.of(Filter.POD_TOPOLOGY_SPREAD, Filter.INTER_POD_AFFINITY, Filter.NODE_RESOURCES_FIT)) {
            if (refused.getOrDefault(needed, 0) == 0) {
                throw new IllegalStateException("no node refused by " + needed + ": not the case this benchmark is for");
            }
        }
    }

    /**
     * The synthetic cluster in three zones; every tenth pod made a "web" replica: half keep apart from
     * each other by node or zone, half spread by zone.
     */
    static ClusterSnapshot withInterPodConstraints(ClusterSnapshot base) {
        LabelSelector web = LabelSelector.matching(Map.of("app", "web"));
        SchedulingConstraints spread = new SchedulingConstraints(List.of(),
                List.of(new SpreadConstraint(1, ZONE, web, 1, true)), List.of(), List.of());
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        base.priorityClasses().forEach(b::priorityClass);
        base.budgets().forEach(b::budget);
        int i = 0;
        for (NodeInfo node : base.nodes()) {
            Map<String, String> labels = new HashMap<>(node.labels());
            labels.put(ZONE, "zone-" + Math.floorMod(node.name().hashCode(), 3));
            b.node(node.name(), labels, node.allocatable(), node.admission());
            for (PodInfo pod : node.pods()) {
                PodInfo.Builder p = pod.toBuilder();
                if (i++ % 10 == 0) {
                    p.namespace("ns-0").labels(Map.of("app", "web"));
                    switch ((i / 10) % 4) {
                        case 0 -> p.antiAffinity(List.of(new PodAffinityTerm(web, Set.of(), false, PodAffinityTerm.HOSTNAME)));
                        case 1 -> p.antiAffinity(List.of(new PodAffinityTerm(LabelSelector.matching(Map.of("app", "web-canary")),
                                Set.of(), false, ZONE)));
                        default -> p.constraints(spread);
                    }
                }
                b.pod(p.build());
            }
        }
        return b.build();
    }

    /** The placement survey alone: every filter over every node. */
    @Benchmark
    public PlacementSurvey survey() {
        return PlacementSurvey.of(new SnapshotState(snapshot, NOW), pending, Optional.empty());
    }

    /** Preempt alone, over the survey's candidates (the second half of {@link #simulate}). */
    @Benchmark
    public PreemptionDecision preempt() {
        return engine.decide(snapshot, pending, Candidate.onNodes(candidates), QueueRules.off());
    }

    /** As {@code /debug/simulate}: the survey, then preempt over its candidates reading its pre-filters' counts. */
    @Benchmark
    public PreemptionDecision simulate() {
        PodPlacement placement = PodPlacement.of(new SnapshotState(snapshot, NOW), pending);
        PlacementSurvey survey = PlacementSurvey.of(placement);
        return engine.decide(snapshot, pending, Candidate.onNodes(survey.preemptionCandidates()), QueueRules.off(),
                placement);
    }
}
