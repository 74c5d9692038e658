package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.room.QueueRules;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.makeroom.core.preemption.Scenario.pod;
import static dev.makeroom.core.preemption.Scenario.victimNames;
import static org.assertj.core.api.Assertions.assertThat;

/** A pending member of a gang gets victims only when every member its gang needs to start has room. */
class GangStartTest {

    private static final Instant NOW = Instant.parse("2026-11-28T00:00:00Z");
    private static final Gang TRAIN = new Gang("default", "coscheduling", "train", Gang.EVERY_MEMBER);

    /** Nodes a, b, c of 2 cpu, full: a and b with low-priority pods, c with pods above the gang's priority. */
    private static Scenario full() {
        return new Scenario().node("a", "cpu", 2).node("b", "cpu", 2).node("c", "cpu", 2)
                .on("a", pod("low-a", 0, "cpu", 2)).on("b", pod("low-b", 0, "cpu", 2)).on("c", pod("high-c", 900, "cpu", 2));
    }

    /** Three pending workers of 2 cpu at priority 100; worker-0 is the one the scheduler asks about. */
    private static PodInfo waiting(Scenario s, Gang gang) {
        for (int i = 0; i < 3; i++) {
            s.add(PodInfo.builder("worker-" + i).name("worker-" + i).priority(100).requests(Resources.of("cpu", 2))
                    .qos(QosClass.GUARANTEED).gang(gang).build());
        }
        return s.snapshot().pod("worker-0");
    }

    private static PreemptionDecision decide(ClusterSnapshot snapshot, PodInfo pending) {
        PreemptionEngine engine = Scenario.minimal().engine();
        PreemptionDecision alone = engine.decide(snapshot, pending, Candidate.onNodes(List.of("a", "b", "c")), QueueRules.off());
        assertThat(alone.outcome()).as("room for the one member").isEqualTo(DecisionOutcome.PREEMPT);
        return GangStart.check(engine, snapshot, pending, alone, QueueRules.off(), NOW).decision();
    }

    @Test
    void no_victims_when_only_two_of_the_three_workers_could_start() {
        Scenario s = full();
        PodInfo pending = waiting(s, TRAIN);
        PreemptionDecision decision = decide(s.snapshot(), pending);
        assertThat(decision.outcome()).isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
        assertThat(decision.chosen()).isEmpty();
        assertThat(decision.detail()).isEqualTo("no room for its whole gang default/train: 3 members must start together"
                + " and room was found for 2 (default/worker-2: no candidate node can make room)");
    }

    @Test
    void victims_for_the_first_worker_when_all_three_have_room() {
        Scenario s = full().node("d", "cpu", 2).on("d", pod("low-d", 0, "cpu", 2));
        PodInfo pending = waiting(s, TRAIN);
        PreemptionDecision decision = decide(s.snapshot(), pending);
        assertThat(decision.outcome()).isEqualTo(DecisionOutcome.PREEMPT);
        assertThat(victimNames(decision.chosen().get(0))).singleElement().isIn("low-a", "low-b"); // the newer goes
    }

    @Test
    void a_member_already_nominated_where_its_victims_are_going_counts_as_placed() {
        Scenario s = new Scenario().node("a", "cpu", 2).node("b", "cpu", 2).node("c", "cpu", 2)
                .on("a", pod("low-a", 0, "cpu", 2)).on("b", pod("low-b", 0, "cpu", 2).terminating(true))
                .on("c", pod("low-c", 0, "cpu", 2));
        for (int i = 0; i < 3; i++) { // worker-2's victim on b is terminating: it waits for it there
            s.add(PodInfo.builder("worker-" + i).name("worker-" + i).priority(100).requests(Resources.of("cpu", 2))
                    .qos(QosClass.GUARANTEED).gang(TRAIN).nominatedNodeName(i == 2 ? "b" : null).build());
        }
        ClusterSnapshot snapshot = s.snapshot();
        PreemptionEngine engine = Scenario.minimal().engine();
        PodInfo pending = snapshot.pod("worker-0");
        PreemptionDecision alone = engine.decide(snapshot, pending, Candidate.onNodes(List.of("a", "c")), QueueRules.off());
        PreemptionDecision decision = GangStart.check(engine, snapshot, pending, alone, QueueRules.off(), NOW).decision();
        assertThat(decision.outcome()).isEqualTo(DecisionOutcome.PREEMPT); // worker-0 on a or c, worker-1 on the other
    }

    @Test
    void a_gang_that_needs_no_other_member_to_start_is_decided_as_one_pod() {
        Gang atLeastTwo = new Gang("default", "coscheduling", "train", 2);
        Scenario s = full().node("e", "cpu", 8).on("e", pod("running-worker", 100, "cpu", 1).gang(atLeastTwo));
        PodInfo pending = waiting(s, atLeastTwo); // one running, two needed: this one suffices
        PreemptionDecision decision = decide(s.snapshot(), pending);
        assertThat(decision.outcome()).isEqualTo(DecisionOutcome.PREEMPT);
    }

    @Test
    void no_victims_for_the_first_member_of_a_gang_whose_podgroup_is_not_there_yet_then_its_minimum_decides() {
        // the first worker of three is asked about before its PodGroup and the other workers are seen
        Scenario s = full().node("d", "cpu", 2).on("d", pod("low-d", 0, "cpu", 2)).podGroupsOf("coscheduling");
        s.add(PodInfo.builder("worker-0").name("worker-0").priority(100).requests(Resources.of("cpu", 2))
                .qos(QosClass.GUARANTEED).gang(TRAIN).build());
        PreemptionDecision early = decide(s.snapshot(), s.snapshot().pod("worker-0"));
        assertThat(early.outcome()).isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
        assertThat(early.detail()).isEqualTo("no PodGroup known for its gang default/train (coscheduling): how many"
                + " members must start together is not known yet");

        s.podGroup(TRAIN, 3); // seen now, the other workers not yet: three must start, one waits
        PreemptionDecision withGroup = decide(s.snapshot(), s.snapshot().pod("worker-0"));
        assertThat(withGroup.detail()).isEqualTo("no room for its whole gang default/train: 3 members must start"
                + " together and room was found for 0 (1 of its members wait to start)");

        PodInfo pending = waiting(s, TRAIN); // all three seen, and room for them on a, b and d
        PreemptionDecision all = decide(s.snapshot(), pending);
        assertThat(all.outcome()).isEqualTo(DecisionOutcome.PREEMPT);
    }

    @Test
    void where_podgroups_are_not_watched_a_gang_without_one_is_decided_from_its_pods() {
        Scenario s = full().node("d", "cpu", 2).on("d", pod("low-d", 0, "cpu", 2)); // no coscheduling PodGroups served
        PodInfo pending = waiting(s, TRAIN);
        assertThat(decide(s.snapshot(), pending).outcome()).isEqualTo(DecisionOutcome.PREEMPT);
    }

    @Test
    void simulate_and_why_ask_the_same() {
        Scenario s = full();
        PodInfo pending = waiting(s, TRAIN);
        ClusterSnapshot snapshot = s.snapshot();
        PendingPodSurvey.Answer answer = PendingPodSurvey.ask(PreemptionPipeline.of(Scenario.minimal().engine()), new SnapshotState(snapshot, NOW),
                snapshot, pending, new PendingPodSurvey.Settings(Optional.empty(), QueueRules.off(),
                        PendingPodSurvey.Decide.ALWAYS));
        assertThat(answer.decision().orElseThrow().detail()).startsWith("no room for its whole gang default/train");
        assertThat(answer.placesByPreemption()).isFalse();
    }
}
