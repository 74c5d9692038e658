package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PreferredNodeTerm;
import dev.makeroom.core.model.PreferredPodTerm;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.model.Toleration;
import dev.makeroom.core.rounds.affinity.AffinityPolicy;
import dev.makeroom.core.rounds.planner.ReschedulePlanner;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;
import dev.makeroom.core.rounds.spread.SpreadPolicy;
import dev.makeroom.core.rounds.spread.SpreadSettings;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ReschedulePlannerTest {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final RescheduleSettings.MoveLimits LIMITS = new RescheduleSettings.MoveLimits(10, 5, 10, 10, 50);
    private static final RescheduleSettings REBALANCE = SettingsBuilder.limits(LIMITS)
            .rebalance(new RebalanceSettings(true,
            Map.of("cpu", 40), Map.of("cpu", 70))).build();
    private static final RescheduleSettings AFFINITY = SettingsBuilder.limits(LIMITS).affinity().build();

    private static PodInfo.Builder pod(String name, String node, long cpu, int priority) {
        return PodInfo.builder(name).name(name).nodeName(node).priority(priority).requests(Resources.of("cpu", cpu))
                .startTime(Instant.parse("2026-11-01T00:00:00Z"))
                .controller(new OwnerRef("ReplicaSet", "web", "rs-" + name));
    }

    private static ClusterSnapshot.Builder nodes(String... names) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (String name : names) {
            b.node(name, Map.of("pool", name.startsWith("gpu") ? "gpu" : "general"),
                    Resources.of("cpu", 4000, "pods", 10));
        }
        return b;
    }

    private static ReschedulePlan plan(ClusterSnapshot snapshot, RescheduleSettings settings) {
        return Rounds.plan(snapshot, settings, List.of(), NOW);
    }

    @Test
    void a_pod_its_node_selector_no_longer_allows_moves_to_a_node_it_allows() {
        SchedulingConstraints gpuOnly = new SchedulingConstraints(List.of(), List.of(),
                List.of(LabelSelector.matching(Map.of("pool", "gpu"))), List.of());
        ClusterSnapshot snapshot = nodes("general-1", "gpu-1", "general-2")
                .pod(pod("trainer", "general-1", 1000, 0).constraints(gpuOnly).build()).build();
        assertThat(plan(snapshot, AFFINITY).moves()).containsExactly(new Move(snapshot.pod("trainer").ref(),
                "general-1", "gpu-1", AffinityPolicy.KIND,
                "its node selector or required node affinity no longer allows general-1"));
    }

    @Test
    void a_hot_node_sheds_its_lowest_priority_pod_to_a_cold_node_that_stays_below_low() {
        ClusterSnapshot snapshot = nodes("hot", "cold", "warm")
                .pod(pod("important", "hot", 2000, 100).build())
                .pod(pod("batch", "hot", 1000, 0).build())
                .pod(pod("steady", "warm", 1500, 0).build()).build();
        ReschedulePlan plan = plan(snapshot, REBALANCE);
        assertThat(plan.moves()).extracting(Move::pod).extracting(p -> p.name()).containsExactly("batch");
        assertThat(plan.moves().get(0).to()).isEqualTo("cold"); // warm is at 37.5% and would pass 40% with it
        assertThat(plan.moves().get(0).reason()).isEqualTo("above cpu 70%");
    }

    @Test
    void a_gang_member_is_never_moved_and_the_pod_beside_it_is() {
        Gang training = new Gang("default", "coscheduling", "train-1", Gang.EVERY_MEMBER);
        ClusterSnapshot snapshot = nodes("hot", "cold", "warm")
                .pod(pod("worker-0", "hot", 1000, 0).gang(training).build())
                .pod(pod("important", "hot", 1500, 100).build())
                .pod(pod("batch", "hot", 500, 0).priority(1).build())
                .pod(pod("worker-1", "warm", 1000, 0).gang(training).build()).build();
        ReschedulePlan plan = plan(snapshot, REBALANCE);
        // the lowest priority pod on the hot node is the gang member: it stays, and the next one moves
        assertThat(plan.moves()).extracting(m -> m.pod().name()).containsExactly("batch");
        assertThat(plan.skipped()).filteredOn(skip -> skip.pod().name().equals("worker-0"))
                .extracting(Skip::category).containsExactly(SkipCategory.GANG_MEMBER);
    }

    @Test
    void a_pod_with_nowhere_to_go_stays_and_says_so() {
        ClusterSnapshot.Builder b = nodes("hot", "cordoned");
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .node("hot", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .node("cordoned", Map.of(), Resources.of("cpu", 4000, "pods", 10), new NodeAdmission(true, List.of()))
                .pod(pod("batch", "hot", 3000, 0).build()).build();
        ReschedulePlan plan = plan(snapshot, REBALANCE);
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.skipped()).extracting(Skip::reason).containsExactly(
                "above cpu 70%; not moved: no other node qualifies for the rebalance policy");
    }

    @Test
    void pods_that_must_stay_are_reported_not_moved() {
        ClusterSnapshot snapshot = nodes("hot", "cold")
                .pod(pod("bare", "hot", 1000, 0).controller(null).build())
                .pod(pod("agent", "hot", 1000, 0).controller(new OwnerRef("DaemonSet", "agent", "ds")).build())
                .pod(pod("keep", "hot", 1000, 0).evictable(false).build()).build();
        ReschedulePlan plan = plan(snapshot, REBALANCE);
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.skipped()).extracting(Skip::reason).containsExactlyInAnyOrder("no controller would recreate it",
                "a DaemonSet pod belongs to its node", "makeroom.dev/evictable is false");
    }

    @Test
    void a_pod_moves_for_its_preferred_node_affinity_only_when_another_node_gains_enough() {
        SchedulingConstraints prefersFast = new SchedulingConstraints(List.of(), List.of(), List.of(), List.of(), true,
                List.of(new PreferredNodeTerm(80, new LabelSelector(Map.of(), List.of(new LabelSelector.Requirement(
                        "disk", LabelSelector.Operator.IN, List.of("fast")))))));
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .node("slow", Map.of("disk", "slow"), Resources.of("cpu", 4000, "pods", 10))
                .node("fast", Map.of("disk", "fast"), Resources.of("cpu", 4000, "pods", 10))
                .pod(pod("db", "slow", 1000, 0).constraints(prefersFast).build()).build();
        RescheduleSettings gain50 = SettingsBuilder.limits(LIMITS).rebalance(AFFINITY.policy(RebalanceSettings.class)).affinity(50).build();
        assertThat(plan(snapshot, gain50).moves()).singleElement().satisfies(move -> {
            assertThat(move.to()).isEqualTo("fast");
            assertThat(move.reason()).isEqualTo("its affinity preferences score slow 0, another node at least 50 more");
        });
        RescheduleSettings gain90 = SettingsBuilder.limits(LIMITS).rebalance(AFFINITY.policy(RebalanceSettings.class)).affinity(90).build();
        assertThat(plan(snapshot, gain90).moves()).isEmpty();
        assertThat(plan(snapshot, AFFINITY).moves()).as("minGain 0: preferences never move a pod").isEmpty();
    }

    @Test
    void a_replica_moves_where_its_preferred_anti_affinity_scores_its_zone_higher_and_only_one_does() {
        // three cache replicas in zone a that prefer (weight 100) not to share a zone with each other; b and c empty
        PreferredPodTerm apart = new PreferredPodTerm(100, new PodAffinityTerm(LabelSelector.matching(Map.of("app", "cache")),
                Set.of(), false, ZONE), true);
        SchedulingConstraints prefersApart = new SchedulingConstraints(List.of(), List.of(), List.of(), List.of(), true,
                List.of(), List.of(apart));
        ClusterSnapshot.Builder cluster = ClusterSnapshot.builder()
                .node("a-1", Map.of(ZONE, "a"), Resources.of("cpu", 4000, "pods", 10))
                .node("b-1", Map.of(ZONE, "b"), Resources.of("cpu", 4000, "pods", 10))
                .node("c-1", Map.of(ZONE, "c"), Resources.of("cpu", 4000, "pods", 10));
        for (int i = 1; i <= 3; i++) {
            cluster.pod(pod("cache-" + i, "a-1", 500, 0).labels(Map.of("app", "cache")).constraints(prefersApart)
                    .controller(new OwnerRef("ReplicaSet", "cache", "rs-cache")).build());
        }
        ClusterSnapshot snapshot = cluster.build();
        // in zone a each scores -400 (two others there: -100 each by its own term, -100 each by theirs), 0 in b or c
        RescheduleSettings gain50 = SettingsBuilder.limits(new RescheduleSettings.MoveLimits(10, 1, 10, 10, 50))
                .rebalance(AFFINITY.policy(RebalanceSettings.class)).affinity(50).build();
        ReschedulePlan plan = plan(snapshot, gain50);
        assertThat(plan.moves()).singleElement().satisfies(move -> {
            assertThat(move.from()).isEqualTo("a-1");
            assertThat(move.to()).isIn("b-1", "c-1");
            assertThat(move.reason()).isEqualTo("its affinity preferences score a-1 -400, another node at least 50 more");
        });
        // planned again once it is done, the next replica goes to the zone left empty, and then none moves
        ClusterSnapshot next = new MovableCluster(snapshot).after(plan.moves(), NOW);
        Move second = plan(next, gain50).moves().get(0);
        String emptyZone = plan.moves().get(0).to().equals("b-1") ? "c-1" : "b-1";
        assertThat(second.to()).isEqualTo(emptyZone);
        ClusterSnapshot last = new MovableCluster(next).after(List.of(second), NOW);
        assertThat(plan(last, gain50).moves()).as("one replica per zone: no node scores higher").isEmpty();
    }

    @Test
    void schedule_anyway_spread_is_balanced_only_when_the_document_asks() {
        // worker prefers (ScheduleAnyway, maxSkew 1) to spread over zones: 3 in a, 0 in b; nothing filters it
        SchedulingConstraints soft = new SchedulingConstraints(List.of(), List.of(), List.of(), List.of(), true,
                List.of(), List.of(), List.of(new SpreadConstraint(1, ZONE, LabelSelector.matching(Map.of("app", "worker")),
                1, true)));
        ClusterSnapshot.Builder cluster = ClusterSnapshot.builder()
                .node("a-1", Map.of(ZONE, "a"), Resources.of("cpu", 4000, "pods", 10))
                .node("b-1", Map.of(ZONE, "b"), Resources.of("cpu", 4000, "pods", 10));
        for (int i = 1; i <= 3; i++) {
            cluster.pod(pod("worker-" + i, "a-1", 500, 0).labels(Map.of("app", "worker")).constraints(soft)
                    .controller(new OwnerRef("ReplicaSet", "worker", "rs-worker")).build());
        }
        ClusterSnapshot snapshot = cluster.build();
        RescheduleSettings spread = SettingsBuilder.from(AFFINITY)
                .spread(new SpreadSettings(true, false)).build();
        assertThat(plan(snapshot, spread).moves()).as("DoNotSchedule only: a preference is not a violation").isEmpty();
        ReschedulePlan plan = plan(snapshot, SettingsBuilder.from(spread)
                .spread(new SpreadSettings(true, true)).build());
        assertThat(plan.moves()).singleElement().satisfies(move -> {
            assertThat(move.to()).isEqualTo("b-1");
            assertThat(move.policy()).isEqualTo(SpreadPolicy.KIND);
            assertThat(move.reason()).startsWith("topology spread (ScheduleAnyway) on " + ZONE + " is broken: a holds 3");
        });
    }

    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final SchedulingConstraints WEB_SPREAD_BY_ZONE = new SchedulingConstraints(List.of(),
            List.of(new SpreadConstraint(1, ZONE, LabelSelector.matching(Map.of("app", "web")), 1, true)), List.of(), List.of());

    private static PodInfo.Builder web(String name, String node, long cpu) {
        return pod(name, node, cpu, 0).labels(Map.of("app", "web")).controller(new OwnerRef("ReplicaSet", "web", "rs-web"));
    }

    /** Zones a (hot, a-2), b (b-1), c (c-1, c-2) and a node without a zone label; web spread across zones. */
    private static ClusterSnapshot.Builder zones() {
        return ClusterSnapshot.builder()
                .node("hot", Map.of(ZONE, "a"), Resources.of("cpu", 4000, "pods", 10))
                .node("a-2", Map.of(ZONE, "a"), Resources.of("cpu", 4000, "pods", 10))
                .node("b-1", Map.of(ZONE, "b"), Resources.of("cpu", 4000, "pods", 10))
                .node("c-1", Map.of(ZONE, "c"), Resources.of("cpu", 4000, "pods", 10))
                .node("c-2", Map.of(ZONE, "c"), Resources.of("cpu", 4000, "pods", 10))
                .node("no-zone", Map.of(), Resources.of("cpu", 4000, "pods", 10));
    }

    @Test
    void a_pod_with_zone_spread_moves_where_the_spread_holds_and_never_to_a_node_without_the_zone() {
        // web: a 2 (both on hot), b 1, c 1; hot is at 100%
        ClusterSnapshot snapshot = zones()
                .pod(web("web-1", "hot", 1500).constraints(WEB_SPREAD_BY_ZONE).build())
                .pod(web("web-2", "hot", 1500).constraints(WEB_SPREAD_BY_ZONE).build())
                .pod(pod("batch", "hot", 1000, 100).build())
                .pod(web("web-3", "b-1", 500).constraints(WEB_SPREAD_BY_ZONE).build())
                .pod(web("web-4", "c-1", 500).constraints(WEB_SPREAD_BY_ZONE).build())
                .pod(pod("fill-a", "a-2", 2000, 100).build()).build();
        ReschedulePlan plan = plan(snapshot, REBALANCE);
        Move webMove = plan.moves().stream().filter(m -> m.pod().name().startsWith("web")).findFirst().orElseThrow();
        // the emptiest nodes are no-zone (refused: it lacks the zone key) and c-2 (zone c would hold 2 to b's 1: skew 1)
        assertThat(webMove.to()).isEqualTo("c-2");
        assertThat(plan.moves()).noneMatch(m -> m.to().equals("no-zone") && m.pod().name().startsWith("web"));
    }

    @Test
    void a_move_that_would_break_the_spread_of_the_replicas_left_behind_is_not_made() {
        // web: a 1 (hot), b 2, c 2. web-1 has no spread of its own (a canary, say), but the others' counts
        // it: moving it out of zone a, even to the node in no zone, leaves a at 0 and b at 2: skew 2 (maxSkew 1)
        ClusterSnapshot snapshot = zones()
                .pod(web("web-1", "hot", 1000).build())
                .pod(pod("big", "hot", 2500, 100).build())
                .pod(web("web-2", "b-1", 500).constraints(WEB_SPREAD_BY_ZONE).build())
                .pod(web("web-3", "c-1", 500).constraints(WEB_SPREAD_BY_ZONE).build())
                .pod(web("web-4", "b-1", 500).constraints(WEB_SPREAD_BY_ZONE).build())
                .pod(web("web-5", "c-1", 500).constraints(WEB_SPREAD_BY_ZONE).build())
                .pod(pod("fill-a", "a-2", 1000, 100).build()).build(); // a-2 would pass 40% with web-1
        ReschedulePlan plan = plan(snapshot, REBALANCE);
        assertThat(plan.moves()).noneMatch(m -> m.pod().name().equals("web-1"));
        Skip kept = plan.skipped().stream().filter(skip -> skip.pod().name().equals("web-1")).findFirst().orElseThrow();
        assertThat(kept.category()).isEqualTo(SkipCategory.NO_LANDING);
        assertThat(kept.reason()).startsWith("above cpu 70%; not moved: no other node takes it (c-2: it would raise the"
                + " skew of the topology spread on topology.kubernetes.io/zone");
    }

    @Test
    void a_pod_with_zone_anti_affinity_moves_only_to_a_zone_without_its_peers() {
        List<PodAffinityTerm> apartByZone = List.of(new PodAffinityTerm(LabelSelector.matching(Map.of("app", "web")),
                java.util.Set.of(), false, ZONE));
        ClusterSnapshot snapshot = zones()
                .pod(web("web-1", "hot", 1000).antiAffinity(apartByZone).build())
                .pod(pod("big", "hot", 2500, 100).build())
                .pod(web("web-2", "c-1", 500).antiAffinity(apartByZone).build())
                .pod(pod("fill-a", "a-2", 2000, 100).build())
                .pod(pod("fill-b", "b-1", 1000, 100).build()).build();
        ReschedulePlan plan = plan(snapshot, REBALANCE);
        // below 40% with it: c-2, sharing zone c with web-2, and no-zone, in no zone at all
        assertThat(plan.moves()).extracting(m -> m.pod().name() + "->" + m.to()).contains("web-1->no-zone");
        assertThat(plan.moves()).noneMatch(m -> m.to().startsWith("c-"));
    }

    @Test
    void a_pod_that_tolerates_the_cordon_is_still_never_moved_onto_a_cordoned_node() {
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .node("hot", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .node("cordoned", Map.of(), Resources.of("cpu", 4000, "pods", 10), new NodeAdmission(true, List.of()))
                .pod(pod("batch", "hot", 3000, 0).tolerations(List.of(new Toleration(null, "Exists", null, null))).build())
                .build();
        ReschedulePlan plan = plan(snapshot, REBALANCE);
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.skipped()).extracting(Skip::category).containsExactly(SkipCategory.NO_LANDING);
    }

    /**
     * The stall seen against a real cluster: node-1 holds a web Deployment, a small api Deployment whose
     * budget allows no disruption (its pod the lowest priority, so rebalance looks at it first), a bare
     * pod and a pinned one; the other nodes joined empty. The api pod is skipped for its budget, by
     * name, and the web pods beside it move.
     */
    @Test
    void a_pod_its_budget_keeps_in_place_is_skipped_and_the_movable_pods_beside_it_move() {
        ClusterSnapshot snapshot = nodes("node-1", "node-2", "node-3")
                .pod(pod("api-1", "node-1", 500, 0).labels(Map.of("app", "api"))
                        .controller(new OwnerRef("ReplicaSet", "api", "rs-api")).build())
                .pod(pod("web-1", "node-1", 1000, 100).labels(Map.of("app", "web")).build())
                .pod(pod("web-2", "node-1", 1000, 100).labels(Map.of("app", "web")).build())
                .pod(pod("bare", "node-1", 500, 100).controller(null).build())
                .pod(pod("agent", "node-1", 500, 100).controller(new OwnerRef("DaemonSet", "agent", "ds-agent")).build())
                .budget(new DisruptionBudget("default", "api", LabelSelector.matching(Map.of("app", "api")), 0, Set.of()))
                .build();
        ReschedulePlan plan = plan(snapshot, REBALANCE);
        assertThat(plan.moves()).extracting(m -> m.pod().name()).containsExactly("web-1");
        Skip api = plan.skipped().stream().filter(s -> s.pod().name().equals("api-1")).findFirst().orElseThrow();
        assertThat(api.category()).isEqualTo(SkipCategory.BUDGET);
        assertThat(api.reason()).isEqualTo("above cpu 70%; not moved: PodDisruptionBudget default/api allows no more"
                + " disruptions now (0 allowed)");
    }

    @Test
    void a_budget_allowing_one_disruption_lets_one_of_its_pods_move_in_a_round() {
        ClusterSnapshot snapshot = nodes("hot", "cold-1", "cold-2")
                .pod(pod("web-1", "hot", 1500, 0).labels(Map.of("app", "web")).build())
                .pod(pod("web-2", "hot", 1500, 0).labels(Map.of("app", "web")).build())
                .pod(pod("web-3", "hot", 500, 0).labels(Map.of("app", "web")).build())
                .budget(new DisruptionBudget("default", "web", LabelSelector.matching(Map.of("app", "web")), 1, Set.of()))
                .build();
        RescheduleSettings wide = SettingsBuilder.limits(LIMITS).rebalance(new RebalanceSettings(true,
                Map.of("cpu", 40), Map.of("cpu", 20))).build();
        ReschedulePlan plan = plan(snapshot, wide);
        assertThat(plan.moves()).hasSize(1);
        assertThat(plan.skipped()).extracting(Skip::category).contains(SkipCategory.BUDGET);
    }

    @Test
    void a_pod_held_back_after_a_refusal_is_skipped_and_the_next_one_moves() {
        ClusterSnapshot snapshot = nodes("hot", "cold")
                .pod(pod("first", "hot", 1500, 0).build())
                .pod(pod("second", "hot", 1500, 0).build()).build();
        String first = snapshot.pod("first").uid();
        ReschedulePlan plan = ReschedulePlanner.plan(new RoundInputs(snapshot, REBALANCE, List.of(), NOW,
                PreemptionCheck.NEVER, System::nanoTime, Set.of(first), Set.of()));
        assertThat(plan.moves()).extracting(m -> m.pod().name()).containsExactly("second");
        assertThat(plan.skipped()).filteredOn(s -> s.pod().name().equals("first")).extracting(Skip::category)
                .containsExactly(SkipCategory.BACKOFF);
    }

    @Test
    void gentle_never_takes_a_budgets_last_allowed_disruption_and_moderate_does() {
        ClusterSnapshot snapshot = nodes("hot", "cold")
                .pod(pod("web-1", "hot", 1000, 0).labels(Map.of("app", "web")).build())
                .pod(pod("steady", "hot", 2000, 100).build())
                .budget(new DisruptionBudget("default", "web", LabelSelector.matching(Map.of("app", "web")), 1, Set.of()))
                .build();
        RescheduleSettings moderate = REBALANCE;
        RescheduleSettings gentle = SettingsBuilder.limits(LIMITS).rebalance(moderate.policy(RebalanceSettings.class))
                .aggressiveness(Aggressiveness.GENTLE).build();
        assertThat(plan(snapshot, moderate).moves()).extracting(m -> m.pod().name()).containsExactly("web-1");
        ReschedulePlan held = plan(snapshot, gentle);
        assertThat(held.moves()).noneMatch(m -> m.pod().name().equals("web-1"));
        assertThat(held.skipped()).filteredOn(skip -> skip.pod().name().equals("web-1")).extracting(Skip::reason)
                .containsExactly("above cpu 70%; not moved:"
                + " PodDisruptionBudget default/web allows no more disruptions now (1 allowed; gentle spends at most 0 now)");
    }

    @Test
    void gentle_takes_at_most_a_quarter_of_a_budget_in_an_hour() {
        assertThat(Aggressiveness.GENTLE.usable(1, 0)).isZero();
        assertThat(Aggressiveness.GENTLE.usable(8, 0)).isEqualTo(2);
        assertThat(Aggressiveness.GENTLE.usable(8, 1)).isEqualTo(1);
        assertThat(Aggressiveness.GENTLE.usable(8, 5)).isZero();
        assertThat(Aggressiveness.MODERATE.usable(1, 9)).isEqualTo(1);
        assertThat(Aggressiveness.AGGRESSIVE.usable(3, 0)).isEqualTo(3);
    }
}
