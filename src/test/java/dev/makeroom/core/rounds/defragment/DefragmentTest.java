package dev.makeroom.core.rounds.defragment;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.PreemptionPolicy;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.RoomPlan;
import dev.makeroom.core.rounds.RoundInputs;
import dev.makeroom.core.rounds.SettingsBuilder;
import dev.makeroom.core.rounds.Skip;
import dev.makeroom.core.rounds.SkipCategory;
import dev.makeroom.core.rounds.defragment.DefragmentSettings;
import dev.makeroom.core.rounds.planner.ReschedulePlanner;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class DefragmentTest {

    static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    static final DefragmentSettings DEFRAGMENT = new DefragmentSettings(true,
            Duration.ofSeconds(30), Set.of("default-scheduler"), Duration.ofMinutes(2), 3, Duration.ofSeconds(5));
    static final RescheduleSettings SETTINGS = SettingsBuilder.limits(new RescheduleSettings.MoveLimits(10, 5, 10, 10, 50))
            .defragment(DEFRAGMENT).build();

    static PodInfo.Builder running(String name, String node, long cpu, int priority) {
        return PodInfo.builder(name).name(name).namespace("team").nodeName(node).priority(priority)
                .requests(Resources.of("cpu", cpu)).labels(Map.of("app", name))
                .controller(new OwnerRef("ReplicaSet", "rs-" + name, "rs-" + name));
    }

    static PodInfo.Builder waiting(String name, long cpu, int priority) {
        return PodInfo.builder(name).name(name).namespace("team").priority(priority).requests(Resources.of("cpu", cpu))
                .unschedulableSince(NOW.minusSeconds(60)).controller(new OwnerRef("Job", "job-" + name, "job-" + name));
    }

    /** A pod of higher priority than any pending one here: it takes room and never moves. */
    private static PodInfo fixed(String name, String node, long cpu) {
        return running(name, node, cpu, 1000).build();
    }

    private static ClusterSnapshot.Builder nodes(int count) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (int n = 1; n <= count; n++) {
            b.node("node-" + n, Map.of(), Resources.of("cpu", 4000, "pods", 10));
        }
        return b;
    }

    /** Four nodes of 4 cpus, each running two 1-cpu pods: 8 cpus free in all, 2 on each node. */
    private static ClusterSnapshot.Builder fourHalfFull() {
        ClusterSnapshot.Builder b = nodes(4);
        for (int n = 1; n <= 4; n++) {
            b.pod(running("a" + n, "node-" + n, 1000, 0).build()).pod(running("b" + n, "node-" + n, 1000, 0).build());
        }
        return b;
    }

    static ReschedulePlan plan(ClusterSnapshot snapshot, RescheduleSettings settings) {
        return ReschedulePlanner.plan(new RoundInputs(snapshot, settings, List.of(), NOW, PreemptionCheck.NEVER,
                System::nanoTime, Set.of(), Set.of()));
    }

    @Test
    void four_nodes_with_two_free_cpus_each_make_room_for_a_four_cpu_pod_by_moving_two_pods() {
        ClusterSnapshot snapshot = fourHalfFull().pod(waiting("big", 4000, 0).build()).build();
        ReschedulePlan plan = plan(snapshot, SETTINGS);
        assertThat(plan.rooms()).hasSize(1);
        RoomPlan room = plan.rooms().get(0);
        assertThat(room.pending().name()).isEqualTo("big");
        assertThat(room.node()).isEqualTo("node-1"); // every node is as good; the first by name
        assertThat(room.moves()).extracting(m -> m.pod().name()).containsExactlyInAnyOrder("a1", "b1");
        assertThat(room.moves()).allMatch(m -> m.from().equals("node-1") && !m.to().equals("node-1")
                && m.policy() == DefragmentPolicy.KIND && m.reason().equals("makes room for team/big on node-1"));
        assertThat(room.reserveUntil()).isEqualTo(NOW.plus(Duration.ofMinutes(2)));
        assertThat(room.proven()).isTrue();
        assertThat(plan.moves()).isEqualTo(room.moves());
    }

    @Test
    void of_nodes_alike_the_one_whose_pods_lose_least_by_moving_is_emptied() {
        // every node as good by count, priority and size; node-3's pods checkpointed five minutes ago,
        // the others' have run ten hours unsaved (docs/decisions.md: a move loses what an eviction loses)
        ClusterSnapshot.Builder b = nodes(4);
        for (int n = 1; n <= 4; n++) {
            for (String name : List.of("a" + n, "b" + n)) {
                PodInfo.Builder pod = running(name, "node-" + n, 1000, 0).startTime(NOW.minus(Duration.ofHours(10)));
                b.pod((n == 3 ? pod.checkpointedAt(NOW.minus(Duration.ofMinutes(5))) : pod).build());
            }
        }
        RoomPlan room = plan(b.pod(waiting("big", 4000, 0).build()).build(), SETTINGS).rooms().get(0);
        assertThat(room.node()).isEqualTo("node-3");
        assertThat(room.moves()).extracting(m -> m.pod().name()).containsExactlyInAnyOrder("a3", "b3");
    }

    @Test
    void enough_free_in_total_but_no_way_to_place_the_moved_pods_makes_no_plan() {
        // three nodes each running 2.5 of 4 cpus: 4.5 free in all, but a 2.5-cpu pod fits nowhere else
        ClusterSnapshot.Builder b = nodes(3);
        for (int n = 1; n <= 3; n++) {
            b.pod(running("p" + n, "node-" + n, 2500, 0).build());
        }
        ReschedulePlan plan = plan(b.pod(waiting("big", 4000, 0).build()).build(), SETTINGS);
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.skipped()).singleElement().satisfies(skip -> {
            assertThat(skip.pod().name()).isEqualTo("big");
            assertThat(skip.category()).isEqualTo(SkipCategory.NO_LANDING);
            assertThat(skip.reason()).contains("3 would not all land elsewhere");
        });
    }

    @Test
    void a_budget_that_forbids_the_cheapest_plan_leads_to_the_next_best() {
        // node-1 frees enough by moving one 2-cpu pod, but its budget allows no disruption
        ClusterSnapshot.Builder b = nodes(4).pod(running("solo", "node-1", 2000, 0).labels(Map.of("app", "db")).build());
        for (int n = 2; n <= 4; n++) {
            b.pod(running("a" + n, "node-" + n, 1000, 0).build()).pod(running("b" + n, "node-" + n, 1000, 0).build());
        }
        b.pod(waiting("big", 4000, 0).build());
        assertThat(plan(b.build(), SETTINGS).rooms().get(0).moves()).extracting(m -> m.pod().name())
                .containsExactly("solo");
        b.budget(new DisruptionBudget("team", "db", LabelSelector.matching(Map.of("app", "db")), 0, Set.of()));
        RoomPlan room = plan(b.build(), SETTINGS).rooms().get(0);
        assertThat(room.node()).isEqualTo("node-2");
        assertThat(room.moves()).extracting(m -> m.pod().name()).containsExactlyInAnyOrder("a2", "b2");
    }

    @Test
    void pods_of_higher_priority_than_the_pending_pod_are_never_moved_equal_ones_are() {
        ClusterSnapshot snapshot = nodes(3)
                .pod(running("important", "node-1", 2000, 100).build())
                .pod(running("peer", "node-2", 2000, 10).build())
                .pod(fixed("filler", "node-3", 2000))
                .pod(waiting("big", 4000, 10).build()).build();
        RoomPlan room = plan(snapshot, SETTINGS).rooms().get(0);
        assertThat(room.node()).isEqualTo("node-2");
        assertThat(room.moves()).singleElement().satisfies(m -> {
            assertThat(m.pod().name()).isEqualTo("peer");
            assertThat(m.to()).isEqualTo("node-1"); // beside the pod that may not move
        });
    }

    @Test
    void the_lowest_highest_priority_then_the_least_moved_decide_between_sets_of_one_size() {
        ClusterSnapshot snapshot = nodes(4)
                .pod(running("mid", "node-1", 2000, 5).build())
                .pod(running("low-large", "node-2", 3000, 1).build())
                .pod(running("low-small", "node-3", 2000, 1).build())
                .pod(fixed("filler", "node-4", 1000))
                .pod(waiting("big", 4000, 10).build()).build();
        assertThat(plan(snapshot, SETTINGS).rooms().get(0).moves()).extracting(m -> m.pod().name())
                .containsExactly("low-small");
    }

    @Test
    void opted_out_pods_are_neither_moved_nor_helped() {
        ClusterSnapshot.Builder b = nodes(2).pod(running("keep", "node-1", 2000, 0).defragmentable(false).build())
                .pod(fixed("f", "node-2", 2000));
        assertThat(plan(b.pod(waiting("big", 4000, 0).build()).build(), SETTINGS).rooms()).isEmpty();
        ClusterSnapshot optedOut = nodes(2).pod(running("p", "node-1", 2000, 0).build()).pod(fixed("f", "node-2", 2000))
                .pod(waiting("big", 4000, 0).defragmentable(false).build()).build();
        ReschedulePlan plan = plan(optedOut, SETTINGS);
        assertThat(plan.rooms()).isEmpty();
        assertThat(plan.skipped()).isEmpty(); // not a candidate at all
    }

    @Test
    void only_pods_unschedulable_long_enough_and_of_a_listed_scheduler_are_helped() {
        ClusterSnapshot.Builder b = nodes(2).pod(running("p", "node-1", 2000, 0).build()).pod(fixed("f", "node-2", 2000));
        assertThat(plan(b.pod(waiting("big", 4000, 0).unschedulableSince(NOW.minusSeconds(10)).build()).build(),
                SETTINGS).rooms()).isEmpty();
        assertThat(plan(b.pod(waiting("big", 4000, 0).schedulerName("other").build()).build(), SETTINGS).rooms())
                .isEmpty();
        assertThat(plan(b.pod(waiting("big", 4000, 0).build()).build(), SETTINGS).rooms()).hasSize(1);
    }

    @Test
    void a_pod_preemption_places_is_left_to_the_scheduler_unless_it_may_not_preempt() {
        ClusterSnapshot.Builder b = nodes(2).pod(running("p", "node-1", 2000, 0).build()).pod(fixed("f", "node-2", 2000));
        PreemptionCheck always = (snapshot, pod) -> true;
        ReschedulePlan left = ReschedulePlanner.plan(new RoundInputs(b.pod(waiting("big", 4000, 5).build()).build(),
                SETTINGS, List.of(), NOW, always, System::nanoTime, Set.of(), Set.of()));
        assertThat(left.rooms()).isEmpty();
        assertThat(left.skipped()).extracting(Skip::category).containsExactly(SkipCategory.PREEMPTION);
        ReschedulePlan never = ReschedulePlanner.plan(new RoundInputs(b.pod(waiting("big", 4000, 5)
                .preemptionPolicy(PreemptionPolicy.NEVER).build()).build(), SETTINGS, List.of(), NOW, always, System::nanoTime,
                Set.of(), Set.of()));
        assertThat(never.rooms()).hasSize(1);
    }

    @Test
    void preemption_is_asked_once_per_pod_shape_and_not_at_all_once_the_round_is_full() {
        ClusterSnapshot.Builder b = nodes(2).pod(running("p", "node-1", 2000, 0).build()).pod(fixed("f", "node-2", 2000));
        for (int i = 0; i < 5; i++) { // one Job's pods: one shape
            b.pod(waiting("job-" + i, 4000, 5).controller(new OwnerRef("Job", "job", "job-uid")).build());
        }
        b.pod(waiting("other", 3000, 5).build()); // another shape
        int[] asked = {0};
        PreemptionCheck counting = (snapshot, pod) -> {
            asked[0]++;
            return true;
        };
        ReschedulePlan plan = ReschedulePlanner.plan(new RoundInputs(b.build(), SETTINGS, List.of(), NOW, counting,
                System::nanoTime, Set.of(), Set.of()));
        assertThat(plan.skipped()).hasSize(6).extracting(Skip::category).containsOnly(SkipCategory.PREEMPTION);
        assertThat(asked[0]).as("one decision per shape").isEqualTo(2);

        asked[0] = 0;
        RescheduleSettings noEvictions = SettingsBuilder.limits(new RescheduleSettings.MoveLimits(0, 0, 0, 0, 0))
                .rebalance(SETTINGS.policy(RebalanceSettings.class)).defragment(SETTINGS.policy(DefragmentSettings.class)).build();
        ReschedulePlan full = ReschedulePlanner.plan(new RoundInputs(b.build(), noEvictions, List.of(), NOW, counting,
                System::nanoTime, Set.of(), Set.of()));
        assertThat(full.skipped()).extracting(Skip::category).containsOnly(SkipCategory.LIMIT);
        assertThat(asked[0]).as("a full round asks nothing").isZero();
    }

    @Test
    void room_held_for_a_pod_is_neither_made_again_nor_taken_by_a_later_pod() {
        NodeAdmission held = new NodeAdmission(false, List.of(), List.of(),
                new Reservation(new PodRef("team", "big", "big"), NOW.plusSeconds(60)));
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .node("node-1", Map.of(), Resources.of("cpu", 4000, "pods", 10), held)
                .node("node-2", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .pod(running("a2", "node-2", 1000, 0).build())
                .pod(waiting("big", 4000, 0).build()).pod(waiting("other", 4000, 0).build()).build();
        ReschedulePlan plan = plan(snapshot, SETTINGS);
        assertThat(plan.rooms()).isEmpty();
        assertThat(plan.skipped()).filteredOn(s -> s.pod().name().equals("big"))
                .extracting(Skip::category).containsExactly(SkipCategory.HELD);
        // "other" may not use node-1 (held for big, of its priority), nor move a2 there to free node-2
        assertThat(plan.skipped()).filteredOn(s -> s.pod().name().equals("other"))
                .extracting(Skip::category).containsExactly(SkipCategory.NO_LANDING);
    }

    @Test
    void two_pending_pods_in_one_round_get_rooms_that_do_not_count_the_same_space() {
        ClusterSnapshot snapshot = fourHalfFull().pod(waiting("big-1", 4000, 0).build())
                .pod(waiting("big-2", 4000, 0).build()).build();
        ReschedulePlan plan = plan(snapshot, SETTINGS);
        assertThat(plan.rooms()).extracting(RoomPlan::pending).extracting(PodRef::name).containsExactly("big-1", "big-2");
        assertThat(plan.rooms().get(0).node()).isNotEqualTo(plan.rooms().get(1).node());
        assertThat(plan.moves()).noneMatch(m -> m.to().equals(plan.rooms().get(0).node())
                || m.to().equals(plan.rooms().get(1).node()));
        assertThat(DefragmentProperties.violations(snapshot, plan)).isEmpty();
    }
}
