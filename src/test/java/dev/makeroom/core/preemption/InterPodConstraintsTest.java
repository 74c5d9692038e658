package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.room.InfeasibleReason;
import dev.makeroom.core.room.NodeVerdict;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.makeroom.core.preemption.Scenario.pending;
import static dev.makeroom.core.preemption.Scenario.pod;
import static dev.makeroom.core.preemption.Scenario.victimNames;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Victims that leave the pod schedulable under the kube-scheduler's InterPodAffinity and
 * PodTopologySpread filters, written from their semantics: the two cases seen with a real
 * scheduler first, then each constraint kind, then what makeroom does not model.
 */
class InterPodConstraintsTest {

    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final Map<String, String> WEB = Map.of("app", "web");

    private static PodAffinityTerm term(Map<String, String> labels, String topologyKey) {
        return new PodAffinityTerm(LabelSelector.matching(labels), Set.of(), false, topologyKey);
    }

    private static SchedulingConstraints spread(int maxSkew, String key, int minDomains) {
        return new SchedulingConstraints(List.of(), List.of(new SpreadConstraint(maxSkew, key,
                LabelSelector.matching(WEB), minDomains, true)), List.of(), List.of());
    }

    private static PodInfo web(int priority, SchedulingConstraints constraints) {
        return pending(priority, "cpu", 1).toBuilder().labels(WEB).constraints(constraints).build();
    }

    private static NodeVerdict on(PreemptionDecision decision, String node) {
        return decision.verdicts().stream().filter(v -> v.node().equals(node)).findFirst().orElseThrow();
    }

    @Test
    void spread_over_hostnames_evicts_the_nodes_web_pod_not_its_other_pod_as_the_scheduler_does() {
        // the other pod is the newer one: without the spread constraint it would be the victim
        ClusterSnapshot snapshot = new Scenario().node("a", "cpu", 2).node("b", "cpu", 2)
                .on("a", pod("web-old", 10, "cpu", 1).labels(WEB)).on("a", pod("batch-new", 10, "cpu", 1))
                .on("b", pod("mid-1", 50, "cpu", 1)).on("b", pod("mid-2", 50, "cpu", 1)).snapshot();

        PreemptionDecision decision = Scenario.minimal().decide(snapshot,
                web(100, spread(1, PodAffinityTerm.HOSTNAME, 1)), List.of("a", "b"));

        assertThat(victimNames(decision.chosen().get(0))).containsExactly("web-old");
        assertThat(decision.chosen().get(0).node()).isEqualTo("a");
        assertThat(decision.chosen().get(0).detail()).contains("topology spread on kubernetes.io/hostname");
        assertThat(victimNames(Scenario.minimal().decide(snapshot, pending(100, "cpu", 1).toBuilder().labels(WEB)
                .build(), List.of("a")).chosen().get(0))).as("without the constraint").containsExactly("batch-new");
    }

    @Test
    void an_existing_pods_zone_anti_affinity_against_the_pod_forces_that_pod_out() {
        ClusterSnapshot snapshot = new Scenario().nodeInZone("n", "z1", "cpu", 2)
                .on("n", pod("loner", 10, "cpu", 1).labels(Map.of("app", "db"))
                        .antiAffinity(List.of(term(WEB, ZONE))))
                .on("n", pod("other", 10, "cpu", 1)).snapshot();

        // the scheduler's own victim is the loner, but makeroom decides alone: the candidate carries another
        PreemptionDecision decision = Scenario.minimal().decideFor(snapshot, web(100, SchedulingConstraints.NONE),
                List.of(new Candidate("n", List.of("other"))));

        assertThat(victimNames(on(decision, "n"))).containsExactly("loner");
        assertThat(on(decision, "n").detail()).contains("anti-affinity (" + ZONE + ") of default/loner");
    }

    @Test
    void an_anti_affine_pod_on_another_node_of_the_zone_leaves_nothing_to_evict_here() {
        ClusterSnapshot snapshot = new Scenario().nodeInZone("n", "z1", "cpu", 1).nodeInZone("m", "z1", "cpu", 1)
                .nodeInZone("far", "z2", "cpu", 1)
                .on("n", pod("filler", 10, "cpu", 1))
                .on("m", pod("loner", 10, "cpu", 1).antiAffinity(List.of(term(WEB, ZONE))))
                .on("far", pod("far-filler", 10, "cpu", 1)).snapshot();

        PreemptionDecision decision = Scenario.minimal().decide(snapshot, web(100, SchedulingConstraints.NONE),
                List.of("n", "far"));

        assertThat(on(decision, "n").reason()).isEqualTo(InfeasibleReason.INTER_POD_CONSTRAINT);
        assertThat(on(decision, "n").detail()).contains("runs on m");
        assertThat(victimNames(on(decision, "far"))).containsExactly("far-filler");
    }

    @Test
    void the_pods_own_zone_anti_affinity_forces_out_matching_pods_here_and_rules_out_zones_with_them_elsewhere() {
        ClusterSnapshot snapshot = new Scenario().nodeInZone("n", "z1", "cpu", 2).nodeInZone("m", "z2", "cpu", 2)
                .nodeInZone("m2", "z2", "cpu", 2)
                .on("n", pod("cache", 10, "cpu", 1).labels(Map.of("app", "cache"))).on("n", pod("job", 10, "cpu", 1))
                .on("m", pod("job-m", 10, "cpu", 2))
                .on("m2", pod("cache-m2", 10, "cpu", 1).labels(Map.of("app", "cache"))).snapshot();
        PodInfo pending = pending(100, "cpu", 1).toBuilder().antiAffinity(List.of(term(Map.of("app", "cache"), ZONE)))
                .build();

        PreemptionDecision decision = Scenario.minimal().decide(snapshot, pending, List.of("n", "m"));

        assertThat(victimNames(on(decision, "n"))).containsExactly("cache");
        assertThat(on(decision, "m").reason()).isEqualTo(InfeasibleReason.INTER_POD_CONSTRAINT);
    }

    @Test
    void affinity_met_only_by_lower_priority_pods_of_the_node_is_not_a_feasible_node() {
        // the scheduler's dry run removes every lower-priority pod first, finds the affinity unmet and never offers it
        ClusterSnapshot snapshot = new Scenario().nodeInZone("n", "z1", "cpu", 2).nodeInZone("m", "z2", "cpu", 2)
                .nodeInZone("m2", "z2", "cpu", 2)
                .on("n", pod("friend", 10, "cpu", 1).labels(Map.of("app", "db"))).on("n", pod("job", 10, "cpu", 1))
                .on("m", pod("job-m", 10, "cpu", 2))
                .on("m2", pod("friend-m2", 200, "cpu", 2).labels(Map.of("app", "db"))).snapshot();
        SchedulingConstraints nearDb = new SchedulingConstraints(List.of(term(Map.of("app", "db"), ZONE)), List.of(),
                List.of(), List.of());

        PreemptionDecision decision = Scenario.minimal().decide(snapshot, web(100, nearDb), List.of("n", "m"));

        assertThat(on(decision, "n").reason()).isEqualTo(InfeasibleReason.INTER_POD_CONSTRAINT);
        assertThat(victimNames(on(decision, "m"))).as("its friend runs on m2, in m's zone").containsExactly("job-m");
    }

    @Test
    void a_pod_that_matches_its_own_affinity_may_start_the_group_where_nobody_matches_yet() {
        ClusterSnapshot snapshot = new Scenario().nodeInZone("n", "z1", "cpu", 1)
                .on("n", pod("job", 10, "cpu", 1)).snapshot();
        SchedulingConstraints withOwnKind = new SchedulingConstraints(List.of(term(WEB, ZONE)), List.of(), List.of(),
                List.of());

        assertThat(victimNames(on(Scenario.minimal().decide(snapshot, web(100, withOwnKind), List.of("n")), "n")))
                .containsExactly("job");
    }

    @Test
    void spread_over_zones_counts_every_node_of_the_zone_and_needs_enough_matching_victims_here() {
        // z1 holds 3 web pods (2 here), z2 holds 1: maxSkew 1 needs z1 at most 1 after the pod joins it
        ClusterSnapshot snapshot = new Scenario().nodeInZone("n", "z1", "cpu", 4).nodeInZone("n2", "z1", "cpu", 1)
                .nodeInZone("m", "z2", "cpu", 1)
                .on("n", pod("web-1", 10, "cpu", 1).labels(WEB)).on("n", pod("web-2", 10, "cpu", 1).labels(WEB))
                .on("n", pod("job-1", 10, "cpu", 1)).on("n", pod("job-2", 10, "cpu", 1))
                .on("n2", pod("web-3", 10, "cpu", 1).labels(WEB))
                .on("m", pod("web-4", 10, "cpu", 1).labels(WEB)).snapshot();

        NodeVerdict verdict = on(Scenario.minimal().decide(snapshot, web(100, spread(1, ZONE, 1)), List.of("n")), "n");

        // 3 + 1 - 1 - 1 = 2 of n's web pods must go; they also free the cpu
        assertThat(victimNames(verdict)).containsExactlyInAnyOrder("web-1", "web-2");
    }

    @Test
    void with_fewer_domains_than_min_domains_the_emptiest_counts_as_zero() {
        ClusterSnapshot snapshot = new Scenario().node("a", "cpu", 2).node("b", "cpu", 1)
                .on("a", pod("web-a", 10, "cpu", 1).labels(WEB)).on("a", pod("job-a", 10, "cpu", 1))
                .on("b", pod("web-b", 10, "cpu", 1).labels(WEB)).snapshot();

        // two domains, one web pod each: with minDomains 2 the skew on a is 1 + 1 - 1 = 1 (fine);
        // with minDomains 3 the emptiest counts as 0, so a's web pod must go
        assertThat(victimNames(on(Scenario.minimal().decide(snapshot, web(100, spread(1, PodAffinityTerm.HOSTNAME, 2)),
                List.of("a")), "a"))).containsExactly("job-a");
        assertThat(victimNames(on(Scenario.minimal().decide(snapshot, web(100, spread(1, PodAffinityTerm.HOSTNAME, 3)),
                List.of("a")), "a"))).containsExactly("web-a");
    }

    @Test
    void spread_that_needs_a_protected_matching_pod_gone_is_infeasible_and_says_what_is_short() {
        ClusterSnapshot snapshot = new Scenario().node("a", "cpu", 2).node("b", "cpu", 2)
                .on("a", pod("web-a", 500, "cpu", 1).labels(WEB)).on("a", pod("job-a", 10, "cpu", 1)).snapshot();

        NodeVerdict verdict = on(Scenario.minimal().decide(snapshot, web(100, spread(1, PodAffinityTerm.HOSTNAME, 1)),
                List.of("a")), "a");

        assertThat(verdict.isFeasible()).isFalse();
        assertThat(verdict.detail()).contains("topology spread on kubernetes.io/hostname");
    }

    @Test
    void what_makeroom_does_not_model_keeps_the_schedulers_own_victims_and_says_so() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 2)
                .on("n", pod("big", 10, "cpu", 2)).on("n", pod("small-1", 10, "cpu", 1)).snapshot();
        SchedulingConstraints withVolume = new SchedulingConstraints(List.of(), List.of(), List.of(),
                List.of("a persistentVolumeClaim volume"));
        PodInfo pending = pending(100, "cpu", 1).toBuilder().constraints(withVolume).build();

        NodeVerdict kept = on(Scenario.minimal().decideFor(snapshot, pending,
                List.of(new Candidate("n", List.of("big")))), "n");
        NodeVerdict none = on(Scenario.minimal().decide(snapshot, pending, List.of("n")), "n");

        assertThat(victimNames(kept)).containsExactly("big");
        assertThat(kept.detail()).isEqualTo("not modelled: a persistentVolumeClaim volume; kept the scheduler's victims");
        assertThat(kept.provenOptimal()).isFalse();
        assertThat(none.reason()).isEqualTo(InfeasibleReason.UNMODELLED_CONSTRAINT);
    }

    /**
     * The scheduler's filters answer a node without the topology label of the pod's spread (or affinity)
     * unschedulable and unresolvable, and so does the placement engine: no eviction there helps.
     */
    @Test
    void a_topology_key_the_node_lacks_rules_the_node_out_as_the_scheduler_does() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 1).on("n", pod("job", 10, "cpu", 1)).snapshot();

        NodeVerdict verdict = on(Scenario.minimal().decideFor(snapshot, web(100, spread(1, ZONE, 1)),
                List.of(new Candidate("n", List.of("job")))), "n");

        assertThat(verdict.victims()).isNull();
        assertThat(verdict.reason()).isEqualTo(InfeasibleReason.INTER_POD_CONSTRAINT);
        assertThat(verdict.detail()).isEqualTo("the node has no label " + ZONE + " (the pod's topology spread)");
    }
}
