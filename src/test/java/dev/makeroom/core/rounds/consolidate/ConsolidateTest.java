package dev.makeroom.core.rounds.consolidate;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.Toleration;
import dev.makeroom.core.rounds.Landing;
import dev.makeroom.core.rounds.NodeDrain;
import dev.makeroom.core.rounds.PlannedCluster;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.RoundInputs;
import dev.makeroom.core.rounds.Rounds;
import dev.makeroom.core.rounds.SettingsBuilder;
import dev.makeroom.core.rounds.Skip;
import dev.makeroom.core.rounds.SkipCategory;
import dev.makeroom.core.rounds.consolidate.ConsolidateSettings;
import dev.makeroom.core.rounds.planner.ReschedulePlanner;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ConsolidateTest {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
    private static final RescheduleSettings.MoveLimits LIMITS = new RescheduleSettings.MoveLimits(10, 10, 20, 10, 50);
    private static final ConsolidateSettings CONSOLIDATE = new ConsolidateSettings(true,
            Map.of("cpu", 30), Map.of("cpu", 80), Duration.ofMinutes(15), 1, Duration.ofMinutes(10));
    private static final RescheduleSettings SETTINGS = SettingsBuilder.limits(LIMITS).consolidate(CONSOLIDATE).build();

    private static PodInfo.Builder pod(String name, String node, long cpu) {
        return PodInfo.builder(name).name(name).nodeName(node).requests(Resources.of("cpu", cpu))
                .labels(Map.of("app", name.replaceAll("-\\d+$", "")))
                .startTime(Instant.parse("2026-11-01T00:00:00Z"))
                .controller(new OwnerRef("ReplicaSet", name.replaceAll("-\\d+$", ""), "rs-" + name.replaceAll("-\\d+$", "")));
    }

    private static ClusterSnapshot.Builder node(ClusterSnapshot.Builder b, String name, NodeAdmission admission) {
        return b.node(name, Map.of(), Resources.of("cpu", 4000, "pods", 20), admission);
    }

    /** a at 50%, b at 60%, low at 20% (two pods), idle with nothing but a DaemonSet pod. */
    private static ClusterSnapshot.Builder cluster(NodeAdmission lowAdmission) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        node(b, "a", NodeAdmission.OPEN);
        node(b, "b", NodeAdmission.OPEN);
        node(b, "low", lowAdmission);
        node(b, "idle", NodeAdmission.OPEN);
        return b.pod(pod("base-1", "a", 2000).build())
                .pod(pod("base-2", "b", 2400).build())
                .pod(pod("web-1", "low", 500).build())
                .pod(pod("batch-1", "low", 300).build())
                .pod(pod("agent-1", "idle", 100).controller(new OwnerRef("DaemonSet", "agent", "ds-agent")).build())
                .pod(pod("agent-2", "low", 100).controller(new OwnerRef("DaemonSet", "agent", "ds-agent")).build());
    }

    private static ReschedulePlan plan(ClusterSnapshot snapshot, RescheduleSettings settings) {
        return Rounds.plan(snapshot, settings, List.of(), NOW);
    }

    private static NodeAdmission draining(Instant since) {
        return new NodeAdmission(false, List.of(ConsolidationMark.draining(since)));
    }

    @Test
    void the_least_used_node_is_emptied_onto_the_fullest_nodes_that_stay_under_the_ceiling() {
        ReschedulePlan plan = plan(cluster(NodeAdmission.OPEN).build(), SETTINGS);
        assertThat(plan.drains()).extracting(NodeDrain::node, NodeDrain::step)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("low", NodeDrain.Step.START));
        // b is fullest (60%) and takes web (72.5%); with batch too it would be 80% (at the ceiling: allowed)
        assertThat(plan.moves()).extracting(m -> m.pod().name() + "->" + m.to())
                .containsExactly("web-1->b", "batch-1->b");
        assertThat(plan.moves()).allMatch(m -> m.policy() == ConsolidatePolicy.KIND);
        assertThat(plan.drains().get(0).landings()).isEqualTo(plan.moves());
    }

    @Test
    void the_ceiling_keeps_the_pods_off_a_node_they_would_fill_past_it() {
        RescheduleSettings tight = SettingsBuilder.from(SETTINGS)
                .consolidate(new ConsolidateSettings(true, Map.of("cpu", 30),
                Map.of("cpu", 70), Duration.ofMinutes(15), 1, Duration.ofMinutes(10))).build();
        ReschedulePlan plan = plan(cluster(NodeAdmission.OPEN).build(), tight);
        // b would pass 70% with web (72.5%); a takes both (50 + 12.5 + 7.5 = 70%)
        assertThat(plan.moves()).extracting(m -> m.pod().name() + "->" + m.to()).containsExactly("web-1->a", "batch-1->a");
    }

    @Test
    void a_node_with_a_pod_that_may_not_move_is_not_started_and_nothing_moves() {
        ClusterSnapshot snapshot = cluster(NodeAdmission.OPEN)
                .pod(PodInfo.builder("bare").name("bare").nodeName("low").requests(Resources.of("cpu", 100)).build()).build();
        ReschedulePlan plan = plan(snapshot, SETTINGS);
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.drains()).singleElement().satisfies(d -> {
            assertThat(d.step()).isEqualTo(NodeDrain.Step.NOT_STARTED);
            assertThat(d.reason()).contains("bare").contains("no controller");
        });
    }

    @Test
    void a_node_whose_pods_cannot_all_land_is_not_started_and_its_partial_proof_is_undone() {
        // low1 (13%): web lands on a (57%), then batch would take a past the 62% ceiling, and low2's taint
        // keeps both off it; undone, a is back at 50% and low2's pod (10%, tolerating the taint) lands there
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .node("a", Map.of(), Resources.of("cpu", 4000, "pods", 20))
                .node("low1", Map.of(), Resources.of("cpu", 4000, "pods", 20))
                .node("low2", Map.of(), Resources.of("cpu", 4000, "pods", 20), new NodeAdmission(false,
                        List.of(new dev.makeroom.core.model.Taint("dedicated", "x", "NoSchedule"))))
                .pod(pod("base-1", "a", 2000).build())
                .pod(pod("web-1", "low1", 280).build())
                .pod(pod("batch-1", "low1", 240).build())
                .pod(pod("x-1", "low2", 400).tolerations(List.of(new Toleration("dedicated", "Equal", "x", "NoSchedule")))
                        .build())
                .pod(pod("agent-1", "low2", 200).controller(new OwnerRef("DaemonSet", "agent", "ds-agent")).build())
                .build();
        RescheduleSettings settings = SettingsBuilder.from(SETTINGS)
                .consolidate(new ConsolidateSettings(true,
                Map.of("cpu", 30), Map.of("cpu", 62), Duration.ofMinutes(15), 1, Duration.ofMinutes(10))).build();
        ReschedulePlan plan = plan(snapshot, settings);
        assertThat(plan.drains()).extracting(NodeDrain::node, NodeDrain::step).containsExactly(
                org.assertj.core.groups.Tuple.tuple("low1", NodeDrain.Step.NOT_STARTED),
                org.assertj.core.groups.Tuple.tuple("low2", NodeDrain.Step.START));
        assertThat(plan.drains().get(0).reason()).contains("batch-1");
        assertThat(plan.moves()).extracting(m -> m.pod().name() + "->" + m.to()).containsExactly("x-1->a");
    }

    @Test
    void the_limits_let_part_of_a_proven_plan_go_now_and_the_rest_waits() {
        RescheduleSettings onePerNode = SettingsBuilder.limits(new RescheduleSettings.MoveLimits(10, 1, 20, 10, 50))
                .rebalance(SETTINGS.policy(RebalanceSettings.class)).consolidate(CONSOLIDATE).build();
        ReschedulePlan plan = plan(cluster(NodeAdmission.OPEN).build(), onePerNode);
        assertThat(plan.drains()).singleElement().satisfies(d -> {
            assertThat(d.step()).isEqualTo(NodeDrain.Step.START);
            assertThat(d.landings()).hasSize(2);
        });
        assertThat(plan.moves()).extracting(m -> m.pod().name()).containsExactly("web-1");
        assertThat(plan.skipped()).extracting(Skip::pod).extracting(p -> p.name()).containsExactly("batch-1");
        assertThat(plan.skipped().get(0).category()).isEqualTo(SkipCategory.LIMIT);
    }

    @Test
    void a_budget_that_allows_nothing_now_keeps_the_node_from_starting() {
        ClusterSnapshot snapshot = cluster(NodeAdmission.OPEN)
                .budget(new DisruptionBudget("default", "web", LabelSelector.matching(Map.of("app", "web")), 0, Set.of()))
                .build();
        ReschedulePlan plan = plan(snapshot, SETTINGS);
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.drains()).singleElement().satisfies(d -> assertThat(d.reason()).contains("web-1"));
    }

    @Test
    void the_hour_s_limits_must_let_every_pod_of_the_node_go() {
        ClusterSnapshot snapshot = cluster(NodeAdmission.OPEN).pod(pod("web-2", "low", 100).build()).build();
        RescheduleSettings onePerController = SettingsBuilder.limits(new RescheduleSettings.MoveLimits(10, 10, 20, 1, 50))
                .rebalance(SETTINGS.policy(RebalanceSettings.class)).consolidate(CONSOLIDATE).build();
        ReschedulePlan plan = plan(snapshot, onePerController);
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.drains()).singleElement().satisfies(d -> assertThat(d.reason())
                .contains("evictions per controller per hour"));
    }

    @Test
    void a_draining_node_carries_on_and_no_other_policy_lands_there() {
        ClusterSnapshot snapshot = cluster(draining(NOW.minusSeconds(60))).build();
        ReschedulePlan plan = plan(snapshot, SETTINGS);
        assertThat(plan.drains()).extracting(NodeDrain::node, NodeDrain::step)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("low", NodeDrain.Step.CONTINUE));
        assertThat(plan.moves()).extracting(m -> m.pod().name()).containsExactly("web-1", "batch-1");
        // a pod that tolerates every taint is still not moved onto it (here: off a node whose selector fails)
        PodInfo tolerant = pod("any-1", "a", 100).tolerations(List.of(new Toleration(null, "Exists", null, null)))
                .build();
        assertThat(new PlannedCluster(ClusterSnapshot.builder().node("low", Map.of(), Resources.of("cpu", 4000, "pods", 20),
                draining(NOW)).node("a", Map.of(), Resources.of("cpu", 4000, "pods", 20)).pod(tolerant).build(), NOW)
                .landing(tolerant, snapshot.node("low"))).isEqualTo(new Landing.Refused(Landing.Why.BEING_EMPTIED, null,
                "being emptied by the consolidate policy, never a target (even for a pod that tolerates its taint)"));
    }

    @Test
    void a_draining_node_with_only_its_daemon_set_pods_left_is_emptied() {
        ReschedulePlan plan = plan(onlyAgentOn(draining(NOW.minusSeconds(60))), SETTINGS);
        assertThat(plan.drains()).extracting(NodeDrain::step).containsExactly(NodeDrain.Step.EMPTIED);
        assertThat(plan.moves()).isEmpty();
    }

    @Test
    void an_emptied_node_stays_closed_for_its_time_then_is_released() {
        NodeAdmission emptied = new NodeAdmission(false, List.of(ConsolidationMark.emptied(NOW.minus(Duration.ofMinutes(9)))));
        ClusterSnapshot kept = onlyAgentOn(emptied);
        assertThat(plan(kept, SETTINGS).drains()).as("within keepEmptyFor: nothing to do").isEmpty();
        assertThat(new PlannedCluster(kept, NOW).landing(pod("web-1", "a", 100).build(), kept.node("low")))
                .as("closed to landings while kept").extracting(l -> ((Landing.Refused) l).why())
                .isEqualTo(Landing.Why.BEING_EMPTIED);
        ClusterSnapshot due = onlyAgentOn(new NodeAdmission(false, List.of(ConsolidationMark.emptied(NOW.minus(Duration.ofMinutes(10))))));
        assertThat(plan(due, SETTINGS).drains()).extracting(NodeDrain::step).containsExactly(NodeDrain.Step.RELEASE);
        assertThat(plan(kept, SettingsBuilder.from(SETTINGS)
                .consolidate(SETTINGS.policy(ConsolidateSettings.class).off()).build()).drains())
                .as("the policy off releases at once").extracting(NodeDrain::step).containsExactly(NodeDrain.Step.RELEASE);
    }

    /** a with a pod, low with nothing but a DaemonSet's agent, under {@code lowAdmission}. */
    private static ClusterSnapshot onlyAgentOn(NodeAdmission lowAdmission) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        node(b, "a", NodeAdmission.OPEN);
        node(b, "low", lowAdmission);
        return b.pod(pod("base-1", "a", 2000).build()).pod(pod("agent-2", "low", 100)
                .controller(new OwnerRef("DaemonSet", "agent", "ds-agent")).build()).build();
    }

    @Test
    void a_drain_past_its_time_or_with_the_policy_off_is_abandoned() {
        ClusterSnapshot late = cluster(draining(NOW.minus(Duration.ofMinutes(16)))).build();
        assertThat(plan(late, SETTINGS).drains()).singleElement().satisfies(d -> {
            assertThat(d.step()).isEqualTo(NodeDrain.Step.ABANDON);
            assertThat(d.reason()).contains("15m");
        });
        ClusterSnapshot recent = cluster(draining(NOW.minusSeconds(60))).build();
        ReschedulePlan off = plan(recent, SettingsBuilder.from(SETTINGS)
                .consolidate(SETTINGS.policy(ConsolidateSettings.class).off()).build());
        assertThat(off.drains()).extracting(NodeDrain::step).containsExactly(NodeDrain.Step.ABANDON);
        assertThat(off.moves()).isEmpty();
    }

    @Test
    void a_draining_node_whose_pods_no_longer_land_is_abandoned() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        node(b, "a", NodeAdmission.OPEN);
        node(b, "idle", NodeAdmission.OPEN);
        node(b, "low", draining(NOW.minusSeconds(60)));
        // big (82.5%) would take idle (2.5%) past the 80% ceiling
        ClusterSnapshot snapshot = b.pod(pod("base-1", "a", 2000).build()).pod(pod("web-1", "low", 500).build())
                .pod(pod("big-1", "low", 3300).build())
                .pod(pod("agent-1", "idle", 100).controller(new OwnerRef("DaemonSet", "agent", "ds-agent")).build()).build();
        ReschedulePlan plan = plan(snapshot, SETTINGS);
        assertThat(plan.drains()).singleElement().satisfies(d -> {
            assertThat(d.step()).isEqualTo(NodeDrain.Step.ABANDON);
            assertThat(d.reason()).contains("big-1");
        });
        assertThat(plan.moves()).isEmpty();
    }

    @Test
    void a_draining_node_with_a_pod_the_api_refused_lately_is_abandoned_and_the_pod_not_sent_again() {
        ClusterSnapshot snapshot = cluster(draining(NOW.minusSeconds(60))).build();
        ReschedulePlan plan = ReschedulePlanner.plan(new RoundInputs(snapshot, SETTINGS, List.of(), NOW,
                PreemptionCheck.NEVER, System::nanoTime, Set.of(snapshot.pod("web-1").uid()), Set.of()));
        assertThat(plan.drains()).singleElement().satisfies(d -> {
            assertThat(d.step()).isEqualTo(NodeDrain.Step.ABANDON);
            assertThat(d.reason()).contains("web-1").contains("refused");
        });
        assertThat(plan.moves()).isEmpty();
    }

    @Test
    void held_back_nodes_are_not_tried() {
        ReschedulePlan plan = ReschedulePlanner.plan(new RoundInputs(cluster(NodeAdmission.OPEN).build(), SETTINGS,
                List.of(), NOW, PreemptionCheck.NEVER, System::nanoTime, Set.of(), Set.of("low")));
        // the next least used is a (50%): not below 30%
        assertThat(plan.drains()).isEmpty();
        assertThat(plan.moves()).isEmpty();
    }
}
