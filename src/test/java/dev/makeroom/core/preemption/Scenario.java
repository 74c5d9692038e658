package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PriorityClassInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.Strategy;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A small cluster built in a test's own words: nodes, running pods in bind order, a pending pod. */
public final class Scenario {

    static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
    /**
     * The wall clock of the engines made here: half a day after {@link #EPOCH}, so pods started near it have
     * lost different amounts of work (the default objective's first tie-break) and every run decides alike.
     */
    public static final Instant NOW = EPOCH.plus(Duration.ofHours(12));

    private final ClusterSnapshot.Builder builder = ClusterSnapshot.builder();
    private final List<PodInfo> running = new ArrayList<>();
    private long resourceVersion = 100;

    public Scenario node(String name, Object... allocatable) {
        Map<String, Long> amounts = new java.util.HashMap<>(Resources.of(allocatable).toMap());
        amounts.putIfAbsent(Resources.PODS, 110L);
        builder.node(name, Map.of("kubernetes.io/hostname", name), Resources.of(amounts));
        return this;
    }

    /** A node in a zone ({@code topology.kubernetes.io/zone}), besides its hostname label. */
    Scenario nodeInZone(String name, String zone, Object... allocatable) {
        Map<String, Long> amounts = new java.util.HashMap<>(Resources.of(allocatable).toMap());
        amounts.putIfAbsent(Resources.PODS, 110L);
        builder.node(name, Map.of("kubernetes.io/hostname", name, "topology.kubernetes.io/zone", zone),
                Resources.of(amounts));
        return this;
    }

    /** A Guaranteed pod (BestEffort without requests); placed with {@link #on}, each later pod started later. */
    public static PodInfo.Builder pod(String name, int priority, Object... requests) {
        return PodInfo.builder(name).name(name).priority(priority).requests(Resources.of(requests))
                .qos(requests.length == 0 ? QosClass.BEST_EFFORT : QosClass.GUARANTEED);
    }

    public Scenario on(String node, PodInfo.Builder pod) {
        PodInfo built = pod.nodeName(node).resourceVersion(++resourceVersion).build();
        if (built.startTime() == null) {
            built = built.toBuilder().startTime(EPOCH.plus(Duration.ofMinutes(resourceVersion))).build();
        }
        running.add(built);
        builder.pod(built);
        return this;
    }

    Scenario add(PodInfo pod) {
        builder.pod(pod);
        return this;
    }

    Scenario budget(String name, int allowed, Map<String, String> selector) {
        builder.budget(new DisruptionBudget("default", name, dev.makeroom.core.model.LabelSelector.matching(selector),
                allowed, java.util.Set.of()));
        return this;
    }

    Scenario priorityClass(String name, int value, boolean optedOut) {
        builder.priorityClass(new PriorityClassInfo(name, value, optedOut));
        return this;
    }

    /** A gang's group object stating its minimum (a PodGroup). */
    public Scenario podGroup(dev.makeroom.core.model.Gang gang, int minimum) {
        builder.gangMinimum(gang.key(), minimum);
        return podGroupsOf(gang.system());
    }

    /** Every group object of the gangs {@code system} forms is known: those not given are not there. */
    public Scenario podGroupsOf(String system) {
        builder.gangSystemWithGroups(system);
        return this;
    }

    public ClusterSnapshot snapshot() {
        return builder.build();
    }

    public static PodInfo pending(int priority, Object... requests) {
        return PodInfo.builder("pending").name("pending").priority(priority).requests(Resources.of(requests))
                .qos(QosClass.GUARANTEED).build();
    }

    public static Decider engine(Strategy strategy, PdbMode pdb, AnswerMode answer) {
        return new Decider(new PreemptionEngine(new PreemptionSettings(strategy, answer, pdb, Duration.ofSeconds(5)),
                System::nanoTime, InstantSource.fixed(NOW)));
    }

    /**
     * What evicting {@code pod} at {@link #NOW} loses under the default price, worked out as
     * docs/configuration.md states it (not by the engine's code): a core of cpu weighs 1 and a unit of any
     * resource whose name ends in {@code gpu} 50, per second since the later of start and checkpoint, at most
     * a day, in thousandths.
     */
    public static long workLostAtNow(PodInfo pod) {
        double rate = pod.requests().get(Resources.CPU) / 1000.0;
        for (Map.Entry<String, Long> r : pod.requests().toMap().entrySet()) {
            rate += r.getKey().endsWith("gpu") ? 50.0 * r.getValue() : 0;
        }
        Instant saved = pod.checkpointedAt() != null && pod.checkpointedAt().isAfter(pod.startTime())
                ? pod.checkpointedAt() : pod.startTime();
        long seconds = Math.max(0, Math.min(Duration.between(saved, NOW).toSeconds(), Duration.ofDays(1).toSeconds()));
        return Math.round(rate * 1000) * seconds;
    }

    public static Decider minimal() {
        return engine(Strategy.MINIMAL, PdbMode.PREFER, AnswerMode.ALL);
    }

    public static Decider kubeDefault() {
        return engine(Strategy.KUBE_DEFAULT, PdbMode.PREFER, AnswerMode.ALL);
    }

    static List<String> victimNames(NodeVerdict verdict) {
        return verdict.victims().victims().stream().map(PodInfo::name).toList();
    }
}
