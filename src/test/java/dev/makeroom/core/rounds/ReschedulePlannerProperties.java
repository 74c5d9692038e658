package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.SchedulerFilterOracle;
import dev.makeroom.core.placement.Verdict;
import dev.makeroom.core.rounds.affinity.AffinityPolicy;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Tally;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class ReschedulePlannerProperties {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final RescheduleSettings.MoveLimits GENEROUS = new RescheduleSettings.MoveLimits(100, 100, 100, 100, 100);

    private static RescheduleSettings settings(RescheduleSettings.MoveLimits limits) {
        return SettingsBuilder.limits(limits)
                .rebalance(new RebalanceSettings(true, Map.of("cpu", 30, "memory", 30),
                Map.of("cpu", 60, "memory", 60))).affinity().build();
    }

    @Property(tries = 500)
    void every_moved_pod_fits_where_it_is_expected_given_the_moves_before_it(@ForAll long seed) {
        MovableCluster cluster = MovableCluster.generate(seed);
        ReschedulePlan plan = Rounds.plan(cluster.snapshot(), settings(GENEROUS), List.of(), NOW);
        ClusterSnapshot state = cluster.snapshot();
        List<Move> done = new ArrayList<>();
        for (Move move : plan.moves()) {
            PodInfo pod = state.pod(move.pod().uid());
            assertThat(move.from()).isEqualTo(pod.nodeName()).isNotEqualTo(move.to());
            NodeInfo target = state.node(move.to());
            assertThat(target.admission().unschedulable()).as("%s onto cordoned %s", pod.name(), move.to()).isFalse();
            assertThat(SchedulerFilterOracle.of(state, pod, target).verdict())
                    .as("seed %d: %s onto %s", seed, pod.name(), move.to()).isEqualTo(Verdict.FITS);
            done.add(move);
            ClusterSnapshot next = cluster.after(done, NOW);
            assertThat(KeptOracle.keeps(cluster.snapshot(), next, pod))
                    .as("seed %d: moving %s keeps the spread and affinity of the pods that stay", seed, pod.name()).isTrue();
            state = next;
        }
        Tally.label("moves").collect(plan.moves().size() > 3 ? "4+" : String.valueOf(plan.moves().size()));
        Tally.label("pods with spread or zone terms moved").collect(plan.moves().stream()
                .map(m -> cluster.snapshot().pod(m.pod().uid()))
                .anyMatch(p -> !p.constraints().spread().isEmpty() || !p.constraints().affinity().isEmpty()
                        || p.antiAffinity().stream().anyMatch(t -> t.topologyKey().equals(MovableCluster.ZONE))));
    }

    @Property(tries = 300)
    void nothing_is_moved_that_must_stay_and_no_pod_moves_twice(@ForAll long seed) {
        MovableCluster cluster = MovableCluster.generate(seed);
        ReschedulePlan plan = Rounds.plan(cluster.snapshot(), settings(GENEROUS), List.of(), NOW);
        for (Move move : plan.moves()) {
            PodInfo pod = cluster.snapshot().pod(move.pod().uid());
            assertThat(pod.controller()).isNotNull();
            assertThat(pod.controller().kind()).isNotEqualTo("DaemonSet");
            assertThat(pod.optedOut()).isFalse();
        }
        assertThat(plan.moves().stream().map(m -> m.pod().uid()).distinct().count()).isEqualTo(plan.moves().size());
    }

    @Property(tries = 200)
    void the_limits_hold_counting_the_last_hour(@ForAll long seed) {
        MovableCluster cluster = MovableCluster.generate(seed);
        RescheduleSettings.MoveLimits limits = new RescheduleSettings.MoveLimits(3, 1, 2, 1, 4);
        List<PastEviction> history = List.of(new PastEviction(NOW.minusSeconds(600), "ns-0", "rs-uid-0"),
                new PastEviction(NOW.minusSeconds(7200), "ns-1", "rs-uid-1")); // the second is over an hour old
        ReschedulePlan plan = Rounds.plan(cluster.snapshot(), settings(limits), history, NOW);
        assertThat(plan.moves().size()).isLessThanOrEqualTo(3);
        assertThat(count(plan, Move::from).values()).allMatch(n -> n <= 1);
        Map<String, Integer> byNamespace = count(plan, m -> m.pod().namespace());
        assertThat(byNamespace.getOrDefault("ns-0", 0)).isLessThanOrEqualTo(1);
        assertThat(byNamespace.getOrDefault("ns-1", 0)).isLessThanOrEqualTo(2);
        Map<String, Integer> byController = count(plan, m -> cluster.snapshot().pod(m.pod().uid()).controller().uid());
        assertThat(byController.getOrDefault("rs-uid-0", 0)).isZero();
        assertThat(byController.values()).allMatch(n -> n <= 1);
        assertThat(plan.moves().size() + 1).isLessThanOrEqualTo(4);
    }

    @Property(tries = 200)
    void planned_again_once_the_plan_is_done_nothing_moves_back(@ForAll long seed) {
        MovableCluster cluster = MovableCluster.generate(seed);
        ReschedulePlan first = Rounds.plan(cluster.snapshot(), settings(GENEROUS), List.of(), NOW);
        ReschedulePlan second = Rounds.plan(cluster.after(first.moves(), NOW), settings(GENEROUS), List.of(), NOW);
        Set<String> movedFirst = first.moves().stream().map(m -> m.pod().uid()).collect(Collectors.toSet());
        assertThat(second.moves()).noneMatch(m -> movedFirst.contains(m.pod().uid()));
        // nor does a pod of the same controller go back to a node one of its pods just left (ping-pong)
        ClusterSnapshot snapshot = cluster.snapshot();
        for (Move again : second.moves()) {
            String controller = snapshot.pod(again.pod().uid()).controller().uid();
            assertThat(first.moves()).noneMatch(m -> m.from().equals(again.to())
                    && snapshot.pod(m.pod().uid()).controller().uid().equals(controller));
        }
    }

    @Property(tries = 200)
    void with_nothing_above_its_high_thresholds_rebalance_moves_nothing(@ForAll long seed) {
        MovableCluster cluster = MovableCluster.generate(seed);
        int highest = 0; // the busiest node's cpu, in percent, rounded up: nothing is above it
        for (NodeInfo node : cluster.snapshot().nodes()) {
            highest = Math.max(highest, (int) Math.ceil(100.0 * node.requested().get("cpu") / node.allocatable().get("cpu")));
        }
        RescheduleSettings noRebalanceNeeded = SettingsBuilder.limits(GENEROUS)
                .rebalance(new RebalanceSettings(true,
                Map.of("cpu", 30), Map.of("cpu", highest))).affinity().build();
        ReschedulePlan plan = Rounds.plan(cluster.snapshot(), noRebalanceNeeded, List.of(), NOW);
        assertThat(plan.moves()).allMatch(m -> m.policy() == AffinityPolicy.KIND);
    }

    private static Map<String, Integer> count(ReschedulePlan plan, java.util.function.Function<Move, String> key) {
        Map<String, Integer> counts = new HashMap<>();
        plan.moves().forEach(m -> counts.merge(key.apply(m), 1, Integer::sum));
        return counts;
    }

    /** The cluster with budgets over random apps, allowing none (noneAllowed) or 0 to 9 disruptions. */
    private static ClusterSnapshot withBudgets(ClusterSnapshot snapshot, long seed, boolean noneAllowed) {
        java.util.Random random = new java.util.Random(seed ^ 0x5DEECE66DL);
        List<DisruptionBudget> budgets = new ArrayList<>();
        for (int app = 0; app < 4; app++) {
            if (random.nextInt(3) > 0) {
                budgets.add(new DisruptionBudget("ns-" + (app % 2), "app-" + app,
                        LabelSelector.matching(Map.of("app", "app-" + app)), noneAllowed ? 0 : random.nextInt(10), Set.of()));
            }
        }
        return snapshot.change().budgets(budgets).build();
    }

    @Property(tries = 300)
    void gentle_leaves_each_budget_its_last_disruption_and_three_quarters_of_them_an_hour(@ForAll long seed) {
        ClusterSnapshot snapshot = withBudgets(MovableCluster.generate(seed).snapshot(), seed, false);
        java.util.Random random = new java.util.Random(seed);
        List<PastEviction> history = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) { // evictions of the last hour, of pods some budgets cover
            int app = random.nextInt(4);
            history.add(new PastEviction(NOW.minusSeconds(60L * (1 + random.nextInt(50))), "ns-" + (app % 2),
                    "rs-uid-past-" + i, Map.of("app", "app-" + app)));
        }
        RescheduleSettings generous = settings(GENEROUS);
        RescheduleSettings gentle = SettingsBuilder.from(generous).aggressiveness(Aggressiveness.GENTLE).build();
        ReschedulePlan plan = Rounds.plan(snapshot, gentle, history, NOW);
        for (DisruptionBudget budget : snapshot.budgets()) {
            long spent = plan.moves().stream().filter(m -> budget.covers(snapshot.pod(m.pod().uid()))).count();
            long before = history.stream().filter(p -> p.namespace().equals(budget.namespace())
                    && budget.selector().matches(p.labels())).count();
            assertThat(spent).as("seed %d, budget %s", seed, budget)
                    .isLessThanOrEqualTo(Math.max(0, budget.disruptionsAllowed() - 1))
                    .isLessThanOrEqualTo(Math.max(0, budget.disruptionsAllowed() / 4 - before));
        }
    }

    @Property(tries = 300)
    void a_round_never_plans_more_disruptions_than_a_budget_allows(@ForAll long seed) {
        ClusterSnapshot snapshot = withBudgets(MovableCluster.generate(seed).snapshot(), seed, false);
        ReschedulePlan plan = Rounds.plan(snapshot, settings(GENEROUS), List.of(), NOW);
        for (DisruptionBudget budget : snapshot.budgets()) {
            long spent = plan.moves().stream().filter(m -> budget.covers(snapshot.pod(m.pod().uid()))).count();
            assertThat(spent).as("seed %d, budget %s", seed, budget).isLessThanOrEqualTo(budget.disruptionsAllowed());
        }
    }

    /**
     * No stall: a pod its budget does not let move is passed over exactly as a pod that may not move
     * at all, so the round plans the same moves as on the cluster where those pods were never movable.
     */
    @Property(tries = 300)
    void a_pod_no_budget_lets_move_never_keeps_the_others_from_moving(@ForAll long seed) {
        ClusterSnapshot guarded = withBudgets(MovableCluster.generate(seed).snapshot(), seed, true);
        ClusterSnapshot.Change change = guarded.change().budgets(List.of());
        for (NodeInfo node : guarded.nodes()) {
            List<PodInfo> pods = new ArrayList<>();
            for (PodInfo pod : node.pods()) {
                boolean covered = guarded.budgets().stream().anyMatch(b -> b.covers(pod));
                PodInfo as = covered ? pod.toBuilder().evictable(false).build() : pod;
                change.putPod(as);
                pods.add(as);
            }
            change.putNode(node.withPods(pods, node.nominatedPods()));
        }
        ClusterSnapshot pinned = change.build();
        List<String> withBudgets = Rounds.plan(guarded, settings(GENEROUS), List.of(), NOW).moves().stream()
                .map(Move::toString).toList();
        List<String> neverMovable = Rounds.plan(pinned, settings(GENEROUS), List.of(), NOW).moves().stream()
                .map(Move::toString).toList();
        assertThat(withBudgets).as("seed %d", seed).isEqualTo(neverMovable);
        Tally.label("moves beside guarded pods").collect(withBudgets.isEmpty() ? "none" : "some");
    }
}
