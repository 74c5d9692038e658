package dev.makeroom.bench;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.Rounds;
import dev.makeroom.core.rounds.SettingsBuilder;
import dev.makeroom.core.rounds.consolidate.ConsolidatePolicy;
import dev.makeroom.core.rounds.consolidate.ConsolidateSettings;
import dev.makeroom.core.rounds.duplicates.DuplicatesPolicy;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;
import dev.makeroom.core.rounds.spread.SpreadPolicy;
import dev.makeroom.core.rounds.spread.SpreadSettings;
import dev.makeroom.core.rounds.taints.TaintsPolicy;
import dev.makeroom.core.rounds.taints.TaintsSettings;
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
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One rescheduler round with every policy on (affinity, taints, spread, duplicates, rebalance,
 * consolidate) at 5,000 nodes × 30 pods: the synthetic cluster in three zones after a scale-up (every
 * tenth node joined empty), one node in a hundred tainted {@code NoSchedule} under pods that do not
 * tolerate it, one in a hundred left with three pods (a node to consolidate), a tenth of the pods a
 * zone-spread workload, and every workload's replicas piled several to a node. At set-up it plans
 * once, prints the moves by policy, and fails unless taints, spread, duplicates and consolidate each,
 * alone, find a pod to move: the case it is named for.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ReschedulePoliciesBenchmark {

    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final ConsolidateSettings CONSOLIDATE = new ConsolidateSettings(true,
            Map.of("cpu", 30, "memory", 30), Map.of("cpu", 80, "memory", 80), java.time.Duration.ofMinutes(15), 1,
            java.time.Duration.ofMinutes(10));

    /**
     * The round's eviction limit: 10 (the default), or 100 (ten times the default). Either way taints
     * and spread, which come first, spend it; {@link #consolidateAlone} measures the last policy alone.
     */
    @Param({"10", "100"})
    int perRound;

    private ClusterSnapshot snapshot;
    private RescheduleSettings settings;
    private RescheduleSettings consolidateOnly;
    private final Instant now = Instant.parse("2026-11-23T12:00:00Z");

    @Setup
    public void setUp() {
        ClusterSnapshot movable = SyntheticCluster.movable(SyntheticCluster.generate(5000, 30, 42),
                node -> pod -> Integer.parseInt(node.name().substring("node-".length())) % 10 == 0);
        snapshot = withZonesTaintsAndSpread(movable);
        settings = SettingsBuilder.limits(new RescheduleSettings.MoveLimits(perRound, 2, perRound, perRound, perRound))
                .rebalance(new RebalanceSettings(true, Map.of("cpu", 30, "memory", 30),
                Map.of("cpu", 80, "memory", 80))).affinity(50)
                .taints(new TaintsSettings(true, Set.of()))
                .spread(new SpreadSettings(true, false)).duplicates().consolidate(CONSOLIDATE).build();
        ReschedulePlan probe = plan();
        Map<ReschedulePolicy, Integer> byPolicy = new TreeMap<>(Comparator.comparing(ReschedulePolicy::name));
        for (Move move : probe.moves()) {
            byPolicy.merge(move.policy(), 1, Integer::sum);
        }
        System.out.printf("%n[perRound=%d] moves by policy %s, %d pods left in place%n", perRound, byPolicy,
                probe.skipped().size());
        // each policy alone has work here (together, the earlier ones may spend the round's limit)
        RescheduleSettings none = SettingsBuilder.limits(settings.limits()).build();
        Map<ReschedulePolicy, RescheduleSettings> alone = Map.of(
                TaintsPolicy.KIND, SettingsBuilder.from(none)
                        .taints(new TaintsSettings(true, Set.of()))
                        .build(),
                SpreadPolicy.KIND, SettingsBuilder.from(none).spread(new SpreadSettings(true, false))
                        .build(),
                DuplicatesPolicy.KIND, SettingsBuilder.from(none).duplicates().build(),
                ConsolidatePolicy.KIND, SettingsBuilder.from(none).consolidate(CONSOLIDATE).build());
        consolidateOnly = alone.get(ConsolidatePolicy.KIND);
        alone.forEach((policy, only) -> {
            ReschedulePlan plan = Rounds.plan(snapshot, only, List.of(), now);
            if (plan.moves().stream().noneMatch(m -> m.policy() == policy)) {
                throw new IllegalStateException(policy + " alone moves nothing: not the case this benchmark is for"
                        + (plan.drains().isEmpty() ? "" : "; first node tried: " + plan.drains().get(0)));
            }
        });
    }

    /** Zones by node number, a NoSchedule taint on every hundredth node and three pods left on another, a zone spread on every tenth pod (app web). */
    private static ClusterSnapshot withZonesTaintsAndSpread(ClusterSnapshot base) {
        SchedulingConstraints spread = new SchedulingConstraints(List.of(), List.of(new SpreadConstraint(1, ZONE,
                LabelSelector.matching(Map.of("app", "web")), 1, true)), List.of(), List.of());
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        base.priorityClasses().forEach(b::priorityClass);
        base.budgets().forEach(b::budget);
        int i = 0;
        for (NodeInfo node : base.nodes()) {
            int number = Integer.parseInt(node.name().substring("node-".length()));
            Map<String, String> labels = new HashMap<>(node.labels());
            // zone-0 holds half the nodes: the spread workload is skewed towards it from the start
            labels.put(ZONE, "zone-" + (number % 4 == 3 ? 2 : number % 4 == 2 ? 1 : 0));
            NodeAdmission admission = number % 100 == 7
                    ? new NodeAdmission(false, List.of(new Taint("maintenance", "", "NoSchedule"))) : node.admission();
            b.node(node.name(), labels, node.allocatable(), admission);
            // every hundredth node (offset 31) keeps three pods: one to consolidate
            List<PodInfo> pods = number % 100 == 31 ? node.pods().subList(0, Math.min(3, node.pods().size())) : node.pods();
            for (PodInfo pod : pods) {
                PodInfo.Builder p = pod.toBuilder();
                if (i++ % 10 == 0 && pod.priority() < SyntheticCluster.SYSTEM) {
                    p.namespace("ns-0").labels(Map.of("app", "web")).constraints(spread);
                }
                b.pod(p.build());
            }
        }
        return b.build();
    }

    @Benchmark
    public ReschedulePlan plan() {
        return Rounds.plan(snapshot, settings, List.of(), now);
    }

    /** A round with only consolidate on: candidates found, a node's landings proven, its moves planned. */
    @Benchmark
    public ReschedulePlan consolidateAlone() {
        return Rounds.plan(snapshot, consolidateOnly, List.of(), now);
    }
}
