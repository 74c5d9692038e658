package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PreemptionPolicy;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.room.InfeasibleReason;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.Strategy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.makeroom.core.preemption.Scenario.pending;
import static dev.makeroom.core.preemption.Scenario.pod;
import static dev.makeroom.core.preemption.Scenario.victimNames;
import static org.assertj.core.api.Assertions.assertThat;

/** The named scenarios of the minimal-victims issue, each checked against the objective's intent. */
class SeedScenariosTest {

    private static NodeVerdict only(PreemptionDecision decision) {
        assertThat(decision.verdicts()).hasSize(1);
        return decision.verdicts().get(0);
    }

    @Test
    void a_only_the_priority_two_pod_goes_when_it_alone_frees_enough() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 10)
                .on("n", pod("p0", 0, "cpu", 3)).on("n", pod("p1", 1, "cpu", 1))
                .on("n", pod("p2", 2, "cpu", 5)).on("n", pod("p3", 3, "cpu", 1)).snapshot();

        NodeVerdict verdict = only(Scenario.minimal().decide(snapshot, pending(10, "cpu", 5), List.of("n")));

        assertThat(victimNames(verdict)).containsExactly("p2");
        assertThat(verdict.provenOptimal()).isTrue();
    }

    @Test
    void b_one_big_old_pod_beats_two_small_ones_where_kube_default_takes_the_two() {
        Scenario scenario = new Scenario().node("n", "cpu", 10)
                .on("n", pod("A", 5, "cpu", 4)).on("n", pod("B", 5, "cpu", 2))
                .on("n", pod("C", 5, "cpu", 2)).on("n", pod("D", 5, "cpu", 2));
        ClusterSnapshot snapshot = scenario.snapshot();
        PodInfo pending = pending(10, "cpu", 4);

        assertThat(victimNames(only(Scenario.minimal().decide(snapshot, pending, List.of("n"))))).containsExactly("A");
        assertThat(victimNames(only(Scenario.kubeDefault().decide(snapshot, pending, List.of("n")))))
                .containsExactlyInAnyOrder("C", "D");
    }

    @Test
    void c_best_effort_pods_are_never_chosen_to_free_resources() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 4)
                .on("n", pod("idle", 1)).on("n", pod("worker", 5, "cpu", 4)).snapshot();

        NodeVerdict verdict = only(Scenario.minimal().decide(snapshot, pending(10, "cpu", 2), List.of("n")));

        assertThat(victimNames(verdict)).containsExactly("worker");
    }

    @Test
    void c_a_best_effort_pod_goes_first_when_only_a_pod_slot_is_short() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 10, "pods", 2)
                .on("n", pod("idle", 1)).on("n", pod("worker", 1, "cpu", 1)).snapshot();

        NodeVerdict verdict = only(Scenario.minimal().decide(snapshot, pending(10, "cpu", 1), List.of("n")));

        assertThat(victimNames(verdict)).containsExactly("idle");
    }

    @Test
    void d_prefer_evicts_against_a_budget_only_when_nothing_else_works_and_strict_never_does() {
        Scenario scenario = new Scenario().node("n", "cpu", 4).node("m", "cpu", 4)
                .on("n", pod("guarded", 1, "cpu", 2).labels(Map.of("app", "web")))
                .on("n", pod("free", 3, "cpu", 2))
                .on("m", pod("guarded-m", 1, "cpu", 4).labels(Map.of("app", "web")))
                .budget("web", 0, Map.of("app", "web"));
        ClusterSnapshot snapshot = scenario.snapshot();
        PodInfo pending = pending(10, "cpu", 2);

        PreemptionDecision prefer = Scenario.minimal().decide(snapshot, pending, List.of("n", "m"));
        assertThat(victimNames(prefer.verdicts().get(0))).containsExactly("free");
        assertThat(prefer.verdicts().get(1).victims().pdbViolations()).isEqualTo(1);
        assertThat(prefer.chosen()).extracting(NodeVerdict::node).containsExactly("n", "m");

        PreemptionDecision strict = Scenario.engine(Strategy.MINIMAL, PdbMode.STRICT, AnswerMode.ALL)
                .decide(snapshot, pending, List.of("n", "m"));
        assertThat(victimNames(strict.verdicts().get(0))).containsExactly("free");
        assertThat(strict.verdicts().get(1).reason()).isEqualTo(InfeasibleReason.PDB_WOULD_BE_VIOLATED);
        assertThat(strict.chosen()).extracting(NodeVerdict::node).containsExactly("n");
    }

    @Test
    void d_budgets_allowing_one_disruption_count_several_victims_together() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 3)
                .on("n", pod("w1", 1, "cpu", 1).labels(Map.of("app", "web")))
                .on("n", pod("w2", 1, "cpu", 1).labels(Map.of("app", "web")))
                .on("n", pod("w3", 1, "cpu", 1).labels(Map.of("app", "web")))
                .budget("web", 1, Map.of("app", "web")).snapshot();

        NodeVerdict verdict = only(Scenario.minimal().decide(snapshot, pending(10, "cpu", 3), List.of("n")));

        assertThat(verdict.victims().victims()).hasSize(3);
        assertThat(verdict.victims().pdbViolations()).isEqualTo(2);
    }

    @Test
    void e_opted_out_pods_are_skipped_and_a_pinned_daemonset_pod_takes_them_last() {
        Scenario scenario = new Scenario().priorityClass("keep", 3, true).node("n", "cpu", 4)
                .on("n", pod("by-class", 3, "cpu", 2).priorityClassName("keep"))
                .on("n", pod("by-pod", 2, "cpu", 2).optedOut(true));
        ClusterSnapshot snapshot = scenario.snapshot();

        NodeVerdict plain = only(Scenario.minimal().decide(snapshot, pending(10, "cpu", 2), List.of("n")));
        assertThat(plain.isFeasible()).isFalse();
        assertThat(plain.reason()).isEqualTo(InfeasibleReason.NOT_ENOUGH_PREEMPTIBLE_RESOURCES);
        assertThat(plain.detail()).isEqualTo("evicting every preemptible pod frees too little of [cpu]; "
                + "not preemptible: 1 opted out by annotation, 1 opted out by PriorityClass");

        PodInfo agent = pending(10, "cpu", 2).toBuilder().controller(new OwnerRef("DaemonSet", "agent", "ds"))
                .pinnedNode("n").build();
        NodeVerdict lastResort = only(Scenario.minimal().decide(snapshot, agent, List.of("n")));
        assertThat(victimNames(lastResort)).containsExactly("by-pod");
        assertThat(lastResort.lastResort()).isTrue();
    }

    @Test
    void e_a_daemonset_pod_prefers_ordinary_victims_over_opted_out_ones() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 4)
                .on("n", pod("protected", 1, "cpu", 2).optedOut(true))
                .on("n", pod("ordinary", 5, "cpu", 2)).snapshot();
        PodInfo agent = pending(10, "cpu", 2).toBuilder().controller(new OwnerRef("DaemonSet", "agent", "ds"))
                .pinnedNode("n").build();

        NodeVerdict verdict = only(Scenario.minimal().decide(snapshot, agent, List.of("n")));

        assertThat(victimNames(verdict)).containsExactly("ordinary");
        assertThat(verdict.lastResort()).isFalse();
    }

    @Test
    void f_equal_priority_and_size_go_best_effort_then_burstable_then_guaranteed() {
        ClusterSnapshot slots = new Scenario().node("n", "cpu", 10, "pods", 3)
                .on("n", pod("guaranteed", 1, "cpu", 1)).on("n", pod("burstable", 1, "cpu", 1).qos(QosClass.BURSTABLE))
                .on("n", pod("best-effort", 1)).snapshot();
        assertThat(victimNames(only(Scenario.minimal().decide(slots, pending(10, "cpu", 1), List.of("n")))))
                .containsExactly("best-effort");

        ClusterSnapshot cpu = new Scenario().node("n", "cpu", 2)
                .on("n", pod("guaranteed", 1, "cpu", 1)).on("n", pod("burstable", 1, "cpu", 1).qos(QosClass.BURSTABLE))
                .snapshot();
        assertThat(victimNames(only(Scenario.minimal().decide(cpu, pending(10, "cpu", 1), List.of("n")))))
                .containsExactly("burstable");
    }

    @Test
    void g_a_pod_that_never_preempts_gets_no_victims() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 1).on("n", pod("low", 1, "cpu", 1)).snapshot();
        PodInfo polite = pending(10, "cpu", 1).toBuilder().preemptionPolicy(PreemptionPolicy.NEVER).build();

        PreemptionDecision decision = Scenario.minimal().decide(snapshot, polite, List.of("n"));

        assertThat(decision.outcome()).isEqualTo(DecisionOutcome.NOT_ELIGIBLE);
        assertThat(decision.detail()).contains("Never");
        assertThat(decision.chosen()).isEmpty();
    }

    @Test
    void h_a_host_port_conflict_forces_its_holder_out_even_with_room_to_spare() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 10)
                .on("n", pod("holder", 1, "cpu", 1).hostPorts(List.of(new HostPort("", "TCP", 8080))))
                .on("n", pod("other", 0, "cpu", 1)).snapshot();
        PodInfo pending = pending(10, "cpu", 1).toBuilder().hostPorts(List.of(new HostPort("10.0.0.1", "TCP", 8080)))
                .build();

        assertThat(victimNames(only(Scenario.minimal().decide(snapshot, pending, List.of("n")))))
                .containsExactly("holder");
    }

    @Test
    void h_hostname_anti_affinity_forces_victims_in_both_directions() {
        PodAffinityTerm awayFromBatch = new PodAffinityTerm(LabelSelector.matching(Map.of("tier", "batch")),
                Set.of(), false, PodAffinityTerm.HOSTNAME);
        PodAffinityTerm awayFromWeb = new PodAffinityTerm(LabelSelector.matching(Map.of("tier", "web")),
                Set.of(), false, PodAffinityTerm.HOSTNAME);
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 10)
                .on("n", pod("batch", 1, "cpu", 1).labels(Map.of("tier", "batch")))
                .on("n", pod("shy", 2, "cpu", 1).antiAffinity(List.of(awayFromWeb)))
                .on("n", pod("bystander", 0, "cpu", 1)).snapshot();
        PodInfo pending = pending(10, "cpu", 1).toBuilder().labels(Map.of("tier", "web"))
                .antiAffinity(List.of(awayFromBatch)).build();

        assertThat(victimNames(only(Scenario.minimal().decide(snapshot, pending, List.of("n")))))
                .containsExactlyInAnyOrder("batch", "shy");
    }

    @Test
    void h_a_conflict_with_a_pod_that_cannot_be_a_victim_makes_the_node_infeasible() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 10)
                .on("n", pod("important", 20, "cpu", 1).hostPorts(List.of(new HostPort(null, null, 53))))
                .snapshot();
        PodInfo pending = pending(10, "cpu", 1).toBuilder().hostPorts(List.of(new HostPort(null, "TCP", 53))).build();

        NodeVerdict verdict = only(Scenario.minimal().decide(snapshot, pending, List.of("n")));

        assertThat(verdict.reason()).isEqualTo(InfeasibleReason.CONFLICT_WITH_PROTECTED_POD);
        assertThat(verdict.detail()).contains("host port").contains("important");
    }

    @Test
    void terminating_pods_hold_their_resources_and_are_never_victims() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 4)
                .on("n", pod("leaving", 1, "cpu", 2).terminating(true)).on("n", pod("staying", 1, "cpu", 2))
                .snapshot();

        NodeVerdict verdict = only(Scenario.minimal().decide(snapshot, pending(10, "cpu", 2), List.of("n")));

        assertThat(victimNames(verdict)).containsExactly("staying");
    }

    @Test
    void pods_nominated_at_equal_or_higher_priority_count_as_present() {
        Scenario scenario = new Scenario().node("n", "cpu", 4).on("n", pod("a", 1, "cpu", 1)).on("n", pod("b", 1, "cpu", 1));
        scenario.add(pod("waiting", 10, "cpu", 2).nominatedNodeName("n").build());

        NodeVerdict verdict = only(Scenario.minimal().decide(scenario.snapshot(), pending(10, "cpu", 2), List.of("n")));

        assertThat(victimNames(verdict)).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void a_node_where_the_pod_already_fits_is_never_answered() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 4).on("n", pod("a", 1, "cpu", 1)).snapshot();

        PreemptionDecision decision = Scenario.minimal().decide(snapshot, pending(10, "cpu", 2), List.of("n"));

        assertThat(decision.chosen()).isEmpty();
        assertThat(decision.verdicts().get(0).reason()).isEqualTo(InfeasibleReason.FITS_WITHOUT_PREEMPTION);
        assertThat(decision.outcome()).isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
    }

    @Test
    void nodes_are_answered_best_first_and_best_mode_answers_one() {
        ClusterSnapshot snapshot = new Scenario().node("costly", "cpu", 2).node("cheap", "cpu", 2)
                .on("costly", pod("mid", 5, "cpu", 2)).on("cheap", pod("low", 1, "cpu", 2)).snapshot();
        PodInfo pending = pending(10, "cpu", 2);

        PreemptionDecision all = Scenario.minimal().decide(snapshot, pending, List.of("costly", "cheap"));
        assertThat(all.chosen()).extracting(NodeVerdict::node).containsExactly("cheap", "costly");

        PreemptionDecision best = Scenario.engine(Strategy.MINIMAL, PdbMode.PREFER, AnswerMode.BEST)
                .decide(snapshot, pending, List.of("costly", "cheap"));
        assertThat(best.chosen()).extracting(NodeVerdict::node).containsExactly("cheap");
        assertThat(best.verdicts()).hasSize(2);
    }

    @Test
    void victims_are_listed_highest_priority_first() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 3)
                .on("n", pod("one", 1, "cpu", 1)).on("n", pod("three", 3, "cpu", 1)).on("n", pod("two", 2, "cpu", 1))
                .snapshot();

        NodeVerdict verdict = only(Scenario.minimal().decide(snapshot, pending(10, "cpu", 3), List.of("n")));

        assertThat(victimNames(verdict)).containsExactly("three", "two", "one");
        assertThat(verdict.victims().objective().victims()).isEqualTo(3);
        assertThat(verdict.victims().objective().highestPriority()).isEqualTo(3);
    }
}
