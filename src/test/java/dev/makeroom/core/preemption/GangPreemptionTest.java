package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.NodeVerdict;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.makeroom.core.preemption.Scenario.pending;
import static dev.makeroom.core.preemption.Scenario.pod;
import static dev.makeroom.core.preemption.Scenario.victimNames;
import static org.assertj.core.api.Assertions.assertThat;

/** Victims counted as the work they stop: a gang member costs its whole gang once the gang falls below its minimum. */
class GangPreemptionTest {

    /** A training gang of eight, seven of its workers elsewhere; on node n one worker and two independent pods. */
    private static ClusterSnapshot cluster(int minMember) {
        return training(minMember).snapshot();
    }

    private static Scenario training(int minMember) {
        Gang training = new Gang("default", "coscheduling", "train", minMember);
        Scenario s = new Scenario().node("n", "cpu", 4).node("elsewhere", "cpu", 64)
                .on("n", pod("worker-0", 0, "cpu", 2).gang(training))
                .on("n", pod("web-1", 0, "cpu", 1))
                .on("n", pod("web-2", 0, "cpu", 1));
        for (int i = 1; i < 8; i++) {
            s.on("elsewhere", pod("worker-" + i, 0, "cpu", 1).gang(training));
        }
        return s;
    }

    private static NodeVerdict chosen(ClusterSnapshot snapshot, PodInfo pending) {
        PreemptionDecision decision = Scenario.minimal().decide(snapshot, pending, List.of("n"));
        assertThat(decision.outcome()).isEqualTo(DecisionOutcome.PREEMPT);
        return decision.chosen().get(0);
    }

    @Test
    void two_independent_pods_go_rather_than_one_member_of_a_gang_that_needs_all_eight() {
        NodeVerdict verdict = chosen(cluster(Gang.EVERY_MEMBER), pending(100, "cpu", 2));
        assertThat(victimNames(verdict)).containsExactlyInAnyOrder("web-1", "web-2");
        assertThat(verdict.victims().objective().victims()).isEqualTo(2);
        assertThat(verdict.provenOptimal()).isTrue();
    }

    @Test
    void a_member_within_its_gangs_slack_costs_only_itself() {
        NodeVerdict verdict = chosen(cluster(6), pending(100, "cpu", 2)); // 8 running, 6 needed: 2 may go
        assertThat(victimNames(verdict)).containsExactly("worker-0");
        assertThat(verdict.victims().objective().victims()).isEqualTo(1);
    }

    @Test
    void the_minimum_its_podgroup_states_wins_over_what_its_pods_say() {
        Gang named = new Gang("default", "coscheduling", "train", Gang.EVERY_MEMBER);
        // the pods state no minimum; their PodGroup says six of the eight are enough
        NodeVerdict slack = chosen(training(Gang.EVERY_MEMBER).podGroup(named, 6).snapshot(), pending(100, "cpu", 2));
        assertThat(victimNames(slack)).containsExactly("worker-0");
        // the pods say six; their PodGroup says all eight are needed
        NodeVerdict none = chosen(training(6).podGroup(named, 8).snapshot(), pending(100, "cpu", 2));
        assertThat(victimNames(none)).containsExactlyInAnyOrder("web-1", "web-2");
    }

    @Test
    void when_only_the_gang_frees_enough_it_is_broken_and_counted_whole() {
        NodeVerdict verdict = chosen(cluster(Gang.EVERY_MEMBER), pending(100, "cpu", 3));
        // 3 cpu: the worker and one web pod; the worker's seven peers stop too
        assertThat(victimNames(verdict)).contains("worker-0").hasSize(2);
        assertThat(verdict.victims().objective().victims()).isEqualTo(9);
        assertThat(GangLoss.of(cluster(Gang.EVERY_MEMBER), verdict.victims().victims()))
                .extracting(GangLoss::othersStopped).containsExactly(7);
    }

    @Test
    void of_two_sets_that_cost_the_same_the_one_that_keeps_the_gang_is_chosen() {
        // the gang's two members are all it runs: evicting both loses two pods, as evicting the two web pods does
        Gang pair = new Gang("default", "coscheduling", "pair", Gang.EVERY_MEMBER);
        for (boolean gangFirst : List.of(true, false)) {
            Scenario s = new Scenario().node("n", "cpu", 4);
            // all four started together: no tie-break tells the sets apart
            List<PodInfo.Builder> members = List.of(pod("member-1", 0, "cpu", 1).gang(pair).startTime(Scenario.EPOCH),
                    pod("member-2", 0, "cpu", 1).gang(pair).startTime(Scenario.EPOCH));
            List<PodInfo.Builder> web = List.of(pod("web-1", 0, "cpu", 1).startTime(Scenario.EPOCH),
                    pod("web-2", 0, "cpu", 1).startTime(Scenario.EPOCH));
            (gangFirst ? members : web).forEach(p -> s.on("n", p));
            (gangFirst ? web : members).forEach(p -> s.on("n", p));
            NodeVerdict verdict = chosen(s.snapshot(), pending(100, "cpu", 2));
            assertThat(verdict.victims().objective().victims()).isEqualTo(2);
            assertThat(victimNames(verdict)).as("gang bound first: " + gangFirst)
                    .containsExactlyInAnyOrder("web-1", "web-2");
        }
    }

    @Test
    void between_nodes_the_one_that_breaks_no_gang_wins() {
        Gang training = new Gang("default", "coscheduling", "train", Gang.EVERY_MEMBER);
        ClusterSnapshot snapshot = new Scenario().node("a", "cpu", 2).node("b", "cpu", 2).node("elsewhere", "cpu", 64)
                .on("a", pod("worker-0", 0, "cpu", 2).gang(training))
                .on("b", pod("web-1", 0, "cpu", 1))
                .on("b", pod("web-2", 0, "cpu", 1))
                .on("elsewhere", pod("worker-1", 0, "cpu", 1).gang(training))
                .on("elsewhere", pod("worker-2", 0, "cpu", 1).gang(training)).snapshot();
        PreemptionDecision decision = Scenario.minimal().decide(snapshot, pending(100, "cpu", 2), List.of("a", "b"));
        // a: one victim, three pods lost; b: two victims, two lost
        assertThat(decision.chosen().get(0).node()).isEqualTo("b");
        assertThat(decision.chosen()).extracting(v -> v.victims().objective().victims()).containsExactly(2L, 3L);
    }

    @Test
    void the_kube_default_strategy_stays_the_schedulers_own_and_does_not_see_gangs() {
        for (boolean olderWebPods : List.of(true, false)) {
            List<String> withGang = kubeDefaultVictims(olderWebPods, true);
            assertThat(withGang).as("older web pods: " + olderWebPods).isEqualTo(kubeDefaultVictims(olderWebPods, false));
        }
        assertThat(kubeDefaultVictims(true, true)).containsExactly("worker-0"); // its reprieve keeps the oldest
    }

    private static List<String> kubeDefaultVictims(boolean olderWebPods, boolean gang) {
        Gang training = new Gang("default", "coscheduling", "train", Gang.EVERY_MEMBER);
        Scenario s = new Scenario().node("n", "cpu", 4).node("elsewhere", "cpu", 64);
        PodInfo.Builder worker = pod("worker-0", 0, "cpu", 2).gang(gang ? training : null);
        if (!olderWebPods) {
            s.on("n", worker);
        }
        s.on("n", pod("web-1", 0, "cpu", 1)).on("n", pod("web-2", 0, "cpu", 1));
        if (olderWebPods) {
            s.on("n", worker);
        }
        s.on("elsewhere", pod("worker-1", 0, "cpu", 1).gang(gang ? training : null));
        PreemptionDecision decision = Scenario.kubeDefault().decide(s.snapshot(), pending(100, "cpu", 2), List.of("n"));
        return victimNames(decision.chosen().get(0));
    }
}
