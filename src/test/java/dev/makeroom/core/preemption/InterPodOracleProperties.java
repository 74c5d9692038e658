package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On small random clusters with random anti-affinity (both directions, hostname or zone), affinity
 * and topology spread terms: every victim set makeroom answers, once removed, leaves the pending pod
 * passing an independent implementation of the kube-scheduler's InterPodAffinity, PodTopologySpread
 * and resource filters, and it is optimal among the sets that do (highest victim priority, then
 * count, then priority sum). A node the scheduler would not offer (its filters fail even with every
 * lower-priority pod removed) or where no set works must not be feasible in makeroom's answer.
 */
class InterPodOracleProperties {

    private static final String HOST = PodAffinityTerm.HOSTNAME;
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final List<String> APPS = List.of("a", "b", "c");

    /** A generated cluster: nodes with labels and cpu, pods on them, a pending pod. */
    private record World(Map<String, Map<String, String>> nodeLabels, Map<String, Long> cpu, List<PodInfo> pods,
                         PodInfo pending) {
    }

    @Property(tries = 400)
    void answered_victims_leave_the_pod_schedulable_and_are_minimal(@ForAll long seed) {
        World world = generate(new Random(seed));
        Scenario scenario = new Scenario();
        world.nodeLabels().forEach((name, labels) -> scenario.nodeInZone(name, labels.get(ZONE), "cpu", world.cpu().get(name)));
        world.pods().forEach(scenario::add);
        ClusterSnapshot snapshot = scenario.snapshot();
        List<String> names = List.copyOf(world.nodeLabels().keySet());

        Decider decider = Scenario.minimal();
        PreemptionDecision decision = decider.decide(snapshot, world.pending(), names);
        // reading the placement engine's spread counts, as simulate and --why do, changes nothing
        PodPlacement asked = PodPlacement.of(new SnapshotState(snapshot, Scenario.EPOCH), world.pending());
        PreemptionDecision sharing = decider.engine().decide(snapshot, world.pending(), Candidate.onNodes(names),
                QueueRules.off(), asked);
        assertThat(sharing.verdicts()).as("seed " + seed)
                .usingRecursiveFieldByFieldElementComparatorIgnoringFields("stats").isEqualTo(decision.verdicts());

        for (NodeVerdict verdict : decision.verdicts()) {
            String node = verdict.node();
            List<PodInfo> lower = world.pods().stream()
                    .filter(p -> p.nodeName().equals(node) && p.priority() < world.pending().priority()).toList();
            if (passes(world, node, List.of())) {
                // nothing to preempt here (the scheduler would not ask)
                assertThat(verdict.isFeasible()).as("seed " + seed + ", node " + node).isFalse();
                continue;
            }
            long[] best = null;
            if (passes(world, node, lower)) { // the scheduler would offer the node
                for (int mask = 1; mask < (1 << lower.size()); mask++) {
                    List<PodInfo> set = new ArrayList<>();
                    for (int i = 0; i < lower.size(); i++) {
                        if ((mask & (1 << i)) != 0) {
                            set.add(lower.get(i));
                        }
                    }
                    if (passes(world, node, set) && (best == null || compare(cost(set), best) < 0)) {
                        best = cost(set);
                    }
                }
            }
            String seen = "seed " + seed + ", node " + node + ": " + verdict;
            if (best == null) {
                assertThat(verdict.isFeasible()).as(seen).isFalse();
            } else {
                assertThat(verdict.isFeasible()).as(seen).isTrue();
                List<PodInfo> answered = verdict.victims().victims();
                assertThat(passes(world, node, answered)).as(seen).isTrue();
                assertThat(cost(answered)).as(seen).isEqualTo(best);
            }
        }
    }

    private static long[] cost(List<PodInfo> set) {
        long highest = set.stream().mapToLong(PodInfo::priority).max().orElse(Long.MIN_VALUE);
        return new long[] {highest, set.size(), set.stream().mapToLong(PodInfo::priority).sum()};
    }

    private static int compare(long[] a, long[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) {
                return Long.compare(a[i], b[i]);
            }
        }
        return 0;
    }

    // ---- the oracle: the scheduler's filters evaluated from scratch on the cluster without the victims

    private static boolean passes(World w, String node, List<PodInfo> victims) {
        Set<String> gone = new java.util.HashSet<>();
        victims.forEach(v -> gone.add(v.uid()));
        List<PodInfo> left = w.pods().stream().filter(p -> !gone.contains(p.uid())).toList();
        PodInfo pod = w.pending();
        Map<String, String> here = w.nodeLabels().get(node);
        long used = left.stream().filter(p -> p.nodeName().equals(node)).mapToLong(p -> p.requests().get("cpu")).sum();
        if (used + pod.requests().get("cpu") > w.cpu().get(node)) {
            return false;
        }
        for (PodInfo e : left) {
            for (PodAffinityTerm t : e.antiAffinity()) {
                if (t.selector().matches(pod.labels()) && sameDomain(here, w.nodeLabels().get(e.nodeName()), t.topologyKey())) {
                    return false;
                }
            }
            for (PodAffinityTerm t : pod.antiAffinity()) {
                if (t.selector().matches(e.labels()) && sameDomain(here, w.nodeLabels().get(e.nodeName()), t.topologyKey())) {
                    return false;
                }
            }
        }
        List<PodAffinityTerm> affinity = pod.constraints().affinity();
        if (!affinity.isEmpty()) {
            Map<String, Integer> counts = new HashMap<>();
            for (PodInfo e : left) {
                if (affinity.stream().allMatch(t -> t.selector().matches(e.labels()))) {
                    for (PodAffinityTerm t : affinity) {
                        counts.merge(t.topologyKey() + "=" + w.nodeLabels().get(e.nodeName()).get(t.topologyKey()), 1, Integer::sum);
                    }
                }
            }
            boolean exist = affinity.stream().allMatch(t -> counts.containsKey(t.topologyKey() + "=" + here.get(t.topologyKey())));
            if (!exist && !(counts.isEmpty() && affinity.stream().allMatch(t -> t.selector().matches(pod.labels())))) {
                return false;
            }
        }
        for (SpreadConstraint c : pod.constraints().spread()) {
            Map<String, Integer> counts = new HashMap<>();
            w.nodeLabels().forEach((name, labels) -> counts.putIfAbsent(labels.get(c.topologyKey()), 0));
            for (PodInfo e : left) {
                if (c.selector().matches(e.labels())) {
                    counts.merge(w.nodeLabels().get(e.nodeName()).get(c.topologyKey()), 1, Integer::sum);
                }
            }
            int min = counts.size() < c.minDomains() ? 0 : counts.values().stream().mapToInt(Integer::intValue).min().orElse(0);
            int self = c.selector().matches(pod.labels()) ? 1 : 0;
            if (counts.get(here.get(c.topologyKey())) + self - min > c.maxSkew()) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameDomain(Map<String, String> a, Map<String, String> b, String key) {
        return a.get(key) != null && a.get(key).equals(b.get(key));
    }

    // ---- the generator

    private static World generate(Random random) {
        Map<String, Map<String, String>> nodes = new java.util.TreeMap<>();
        Map<String, Long> cpu = new HashMap<>();
        int nodeCount = 3 + random.nextInt(2);
        for (int n = 0; n < nodeCount; n++) {
            String name = "n" + n;
            nodes.put(name, Map.of(HOST, name, ZONE, "z" + random.nextInt(2)));
            cpu.put(name, 3L + random.nextInt(2));
        }
        List<PodInfo> pods = new ArrayList<>();
        int id = 0;
        for (String node : nodes.keySet()) {
            int count = random.nextInt(5);
            long free = cpu.get(node);
            for (int i = 0; i < count && free > 0; i++) {
                long amount = Math.min(free, 1 + random.nextInt(2));
                free -= amount;
                PodInfo.Builder pod = Scenario.pod("p" + id, 10 * (1 + random.nextInt(3)), "cpu", amount)
                        .labels(Map.of("app", pick(random, APPS))).nodeName(node)
                        .resourceVersion(100 + id).startTime(Scenario.EPOCH.plusSeconds(60L * id));
                if (random.nextInt(6) == 0) {
                    pod.antiAffinity(List.of(term(random)));
                }
                pods.add(pod.build());
                id++;
            }
        }
        PodInfo.Builder pending = Scenario.pending(25 + random.nextInt(2) * 75, "cpu", 1 + random.nextInt(2)).toBuilder()
                .labels(Map.of("app", pick(random, List.of("a", "b"))));
        if (random.nextInt(3) == 0) {
            pending.antiAffinity(List.of(term(random)));
        }
        List<PodAffinityTerm> affinity = random.nextInt(4) == 0 ? List.of(term(random)) : List.of();
        List<SpreadConstraint> spread = new ArrayList<>();
        if (random.nextInt(2) == 0) {
            spread.add(new SpreadConstraint(1 + random.nextInt(2), random.nextBoolean() ? HOST : ZONE,
                    LabelSelector.matching(Map.of("app", pick(random, List.of("a", "b")))), 1 + random.nextInt(3), true));
        }
        pending.constraints(new SchedulingConstraints(affinity, spread, List.of(), List.of()));
        return new World(nodes, cpu, pods, pending.build());
    }

    private static PodAffinityTerm term(Random random) {
        return new PodAffinityTerm(LabelSelector.matching(Map.of("app", pick(random, APPS))), Set.of(), false,
                random.nextBoolean() ? HOST : ZONE);
    }

    private static <T> T pick(Random random, List<T> from) {
        return from.get(random.nextInt(from.size()));
    }
}
