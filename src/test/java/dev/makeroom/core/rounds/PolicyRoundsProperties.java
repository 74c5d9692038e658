package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.model.Toleration;
import dev.makeroom.core.placement.SchedulerFilterOracle;
import dev.makeroom.core.placement.Verdict;
import dev.makeroom.core.rounds.duplicates.DuplicatesPolicy;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;
import dev.makeroom.core.rounds.spread.SpreadPolicy;
import dev.makeroom.core.rounds.spread.SpreadSettings;
import dev.makeroom.core.rounds.taints.TaintsPolicy;
import dev.makeroom.core.rounds.taints.TaintsSettings;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Tally;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The taints, spread and duplicates policies on random clusters ({@link MovableCluster}), judged by
 * oracles written here from the rules: each move is one its policy's condition names, lands where the
 * scheduler's filters pass given the moves before it, and makes that condition better; round after
 * round, with a tight per-round limit, the conditions only get better, no pod goes straight back to the
 * node it left, and the rounds come to rest; and nothing outside the scope ever moves.
 */
class PolicyRoundsProperties {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final RescheduleSettings.MoveLimits GENEROUS = new RescheduleSettings.MoveLimits(100, 100, 100, 100, 100);

    private static RescheduleSettings policies(RescheduleSettings.MoveLimits limits) {
        return SettingsBuilder.limits(limits).taints(new TaintsSettings(true, Set.of()))
                .spread(new SpreadSettings(true, false)).duplicates().build();
    }

    @Property(tries = 400)
    void each_move_is_one_its_policy_names_lands_and_makes_its_condition_better(@ForAll long seed) {
        MovableCluster cluster = MovableCluster.generate(seed);
        ReschedulePlan plan = Rounds.plan(cluster.snapshot(), policies(GENEROUS), List.of(), NOW);
        ClusterSnapshot state = cluster.snapshot();
        List<Move> done = new ArrayList<>();
        for (Move move : plan.moves()) {
            PodInfo pod = state.pod(move.pod().uid());
            NodeInfo from = state.node(move.from());
            NodeInfo to = state.node(move.to());
            assertThat(SchedulerFilterOracle.of(state, pod, to).verdict()).as("seed %d: %s onto %s", seed, pod.name(),
                    move.to()).isEqualTo(Verdict.FITS);
            done.add(move);
            ClusterSnapshot next = cluster.after(done, NOW);
            if (move.policy().equals(TaintsPolicy.KIND)) {
                assertThat(untoleratedNoSchedule(from, pod)).as("seed %d: %s", seed, move).isTrue();
                assertThat(untoleratedNoSchedule(to, pod)).isFalse();
            } else if (move.policy().equals(DuplicatesPolicy.KIND)) {
                assertThat(ofController(state, pod, from)).as("seed %d: %s", seed, move)
                        .isGreaterThanOrEqualTo(ofController(state, pod, to) + 2);
            } else if (move.policy().equals(SpreadPolicy.KIND)) {
                ClusterSnapshot before = state;
                SpreadConstraint broken = pod.constraints().spread().stream()
                        .filter(c -> KeptOracle.skew(before, pod, c) > c.maxSkew()).findFirst().orElse(null);
                assertThat(broken).as("seed %d: %s moved for spread with none broken", seed, move).isNotNull();
                assertThat(KeptOracle.skew(next, next.pod(pod.uid()), broken))
                        .isLessThanOrEqualTo(KeptOracle.skew(before, pod, broken));
            } else {
                throw new AssertionError("only the three policies are on: " + move);
            }
            assertThat(KeptOracle.keeps(cluster.snapshot(), next, pod)).as("seed %d: %s keeps the pods that stay", seed,
                    move).isTrue();
            state = next;
        }
        Tally.label("policies").collect(plan.moves().stream().map(m -> m.policy().name()).distinct().sorted().toList());
    }

    @Property(tries = 200)
    void round_after_round_the_conditions_only_improve_and_the_rounds_come_to_rest(@ForAll long seed) {
        ClusterSnapshot state = MovableCluster.generate(seed).snapshot();
        RescheduleSettings settings = policies(new RescheduleSettings.MoveLimits(2, 1, 100, 100, 100));
        long[] before = measure(state);
        Map<String, String> leftLastRound = new HashMap<>(); // pod uid -> the node it left in the round before
        int rounds = 0;
        while (true) {
            ReschedulePlan plan = Rounds.plan(state, settings, List.of(), NOW);
            if (plan.moves().isEmpty()) {
                break;
            }
            // the cap stops a planner that would loop
            assertThat(++rounds).as("seed %d: still moving after 200 rounds", seed).isLessThanOrEqualTo(200);
            for (Move move : plan.moves()) {
                assertThat(move.to()).as("seed %d, round %d: %s goes straight back", seed, rounds, move)
                        .isNotEqualTo(leftLastRound.get(move.pod().uid()));
            }
            leftLastRound.clear();
            plan.moves().forEach(m -> leftLastRound.put(m.pod().uid(), m.from()));
            state = new MovableCluster(state).after(plan.moves(), NOW);
            long[] now = measure(state);
            // taint moves never add a pod where a taint repels it, spread moves never add a taint violation,
            // duplicates moves neither: read in that order, the three never rise (a spread move that breaks
            // a tie between two fullest domains leaves them level until the next one)
            assertThat(Arrays.compare(now, before)).as("seed %d, round %d: %s after %s", seed, rounds,
                    Arrays.toString(now), Arrays.toString(before)).isLessThanOrEqualTo(0);
            before = now;
        }
        Tally.label("rounds").collect(rounds > 3 ? "4+" : String.valueOf(rounds));
    }

    @Property(tries = 300)
    void nothing_outside_the_scope_moves(@ForAll long seed) {
        MovableCluster cluster = MovableCluster.generate(seed);
        Random random = new Random(seed);
        Scope scope = new Scope(random.nextBoolean() ? Set.of("ns-0") : Set.of(), random.nextBoolean() ? Set.of("ns-1") : Set.of(),
                random.nextBoolean() ? LabelSelector.matching(Map.of("app", "app-" + random.nextInt(4))) : LabelSelector.EMPTY,
                random.nextBoolean() ? LabelSelector.matching(Map.of("pool", "a")) : LabelSelector.EMPTY,
                random.nextBoolean() ? 100 + 100 * random.nextInt(2) : null,
                random.nextBoolean() ? Duration.ofDays(300 + random.nextInt(60)) : Duration.ZERO, random.nextInt(6));
        RescheduleSettings settings = SettingsBuilder.limits(GENEROUS).rebalance(new RebalanceSettings(true,
                Map.of("cpu", 30, "memory", 30), Map.of("cpu", 60, "memory", 60))).affinity()
                .taints(new TaintsSettings(true, Set.of())).spread(new SpreadSettings(true, false))
                .duplicates().scope(scope).build();
        ClusterSnapshot snapshot = cluster.snapshot();
        Map<String, Integer> replicas = new HashMap<>();
        snapshot.pods().forEach(p -> {
            if (p.controller() != null) {
                replicas.merge(p.controller().uid(), 1, Integer::sum);
            }
        });
        ReschedulePlan plan = Rounds.plan(snapshot, settings, List.of(), NOW);
        for (Move move : plan.moves()) {
            PodInfo pod = snapshot.pod(move.pod().uid());
            String seen = "seed " + seed + ": " + move + " with " + scope;
            assertThat(scope.includeNamespaces().isEmpty() || scope.includeNamespaces().contains(pod.namespace())).as(seen).isTrue();
            assertThat(scope.excludeNamespaces()).as(seen).doesNotContain(pod.namespace());
            assertThat(scope.pods().matchLabels().entrySet()).as(seen).allMatch(e -> e.getValue().equals(pod.labels().get(e.getKey())));
            assertThat(scope.nodes().matchLabels().entrySet()).as(seen)
                    .allMatch(e -> e.getValue().equals(snapshot.node(move.from()).labels().get(e.getKey())));
            assertThat(scope.priorityThreshold() == null || pod.priority() < scope.priorityThreshold()).as(seen).isTrue();
            assertThat(pod.startTime().plus(scope.minPodAge())).as(seen).isBefore(NOW);
            assertThat(replicas.get(pod.controller().uid())).as(seen).isGreaterThanOrEqualTo(scope.minReplicas());
        }
        Tally.label("moved in scope").collect(plan.moves().isEmpty() ? "none" : "some");
    }

    /** Pods on nodes with a NoSchedule taint they do not tolerate; spread excess; the squares of each controller's pods per node. */
    private static long[] measure(ClusterSnapshot state) {
        long taints = 0;
        long duplicates = 0;
        long spreadExcess = 0;
        Set<String> seenGroups = new HashSet<>();
        for (NodeInfo node : state.nodes()) {
            Map<String, Integer> perController = new HashMap<>();
            for (PodInfo pod : node.pods()) {
                if (untoleratedNoSchedule(node, pod)) {
                    taints++;
                }
                if (pod.controller() != null && !pod.controller().isDaemonSet()) {
                    perController.merge(pod.controller().uid(), 1, Integer::sum);
                }
                for (SpreadConstraint c : pod.constraints().spread()) {
                    if (seenGroups.add(pod.namespace() + c + pod.constraints())) {
                        spreadExcess += Math.max(0, KeptOracle.skew(state, pod, c) - c.maxSkew());
                    }
                }
            }
            for (int n : perController.values()) {
                duplicates += (long) n * n; // falls with every move to a node holding at least two fewer
            }
        }
        return new long[] {taints, spreadExcess, duplicates};
    }

    private static boolean untoleratedNoSchedule(NodeInfo node, PodInfo pod) {
        for (Taint taint : node.admission().taints()) {
            if ("NoSchedule".equals(taint.effect()) && pod.tolerations().stream().noneMatch((Toleration t) -> t.tolerates(taint))) {
                return true;
            }
        }
        return false;
    }

    private static int ofController(ClusterSnapshot state, PodInfo pod, NodeInfo node) {
        return (int) state.node(node.name()).pods().stream()
                .filter(p -> p.controller() != null && p.controller().uid().equals(pod.controller().uid())).count();
    }
}
