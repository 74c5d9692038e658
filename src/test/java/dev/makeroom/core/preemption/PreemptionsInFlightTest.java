package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.Strategy;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static dev.makeroom.core.preemption.Scenario.pod;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The asynchronous preemption of Kubernetes 1.33 and later asks again while the first victims
 * terminate: a pod whose victims are still on their node has a preemption in flight, until they are
 * gone or their grace period (plus slack) has run out.
 */
class PreemptionsInFlightTest {

    private static final Instant T0 = Instant.parse("2026-11-27T12:00:00Z");

    private static ClusterSnapshot twoFullNodes(boolean lowTerminating, boolean lowGone) {
        Scenario s = new Scenario().node("node-a", "cpu", 4000).node("node-b", "cpu", 4000);
        if (!lowGone) {
            s.on("node-a", pod("low", 1, "cpu", 4000).terminating(lowTerminating).terminationGracePeriodSeconds(20));
        }
        return s.on("node-b", pod("mid", 50, "cpu", 4000)).add(Scenario.pending(100, "cpu", 2000)).snapshot();
    }

    private static PreemptionDecision firstDecision(ClusterSnapshot snapshot, PodInfo pending) {
        return Scenario.minimal().decide(snapshot, pending, List.of("node-a", "node-b"));
    }

    @Test
    void a_pod_whose_victims_are_still_there_is_in_flight_and_told_whom_it_waits_for() {
        ClusterSnapshot before = twoFullNodes(false, false);
        PodInfo pending = before.pod("pending");
        PreemptionDecision first = firstDecision(before, pending);
        assertThat(first.chosen().get(0).node()).isEqualTo("node-a");
        PreemptionsInFlight inFlight = new PreemptionsInFlight();

        inFlight.record(pending, first, T0);

        PreemptionsInFlight.InFlight seen = inFlight.of(twoFullNodes(true, false), pending, T0.plusSeconds(1));
        assertThat(seen.node()).isEqualTo("node-a");
        assertThat(seen.stillThere()).extracting(Object::toString).containsExactly("default/low");
        assertThat(seen.describe()).isEqualTo(
                "its preemption on node-a is in flight: waiting for default/low to terminate");
        assertThat(inFlight.of(before, pending, T0.plusSeconds(1)))
                .as("victims not being deleted: the scheduler did not enact the answer, the pod may preempt again")
                .isNull();
    }

    @Test
    void it_ends_when_the_victims_are_gone_or_their_grace_period_and_slack_have_run_out() {
        ClusterSnapshot before = twoFullNodes(false, false);
        PodInfo pending = before.pod("pending");
        PreemptionsInFlight inFlight = new PreemptionsInFlight();
        inFlight.record(pending, firstDecision(before, pending), T0);

        Instant lastMoment = T0.plusSeconds(20).plus(PreemptionsInFlight.SLACK).minusMillis(1);
        assertThat(inFlight.of(twoFullNodes(true, false), pending, lastMoment)).isNotNull();
        assertThat(inFlight.of(twoFullNodes(true, false), pending, lastMoment.plusMillis(1))).isNull();

        inFlight.record(pending, firstDecision(before, pending), T0);
        assertThat(inFlight.of(twoFullNodes(true, true), pending, T0.plusSeconds(2))).as("gone").isNull();
    }

    @Test
    void only_decisions_that_chose_victims_are_recorded_and_only_for_their_own_pod() {
        ClusterSnapshot before = twoFullNodes(false, false);
        PodInfo pending = before.pod("pending");
        PreemptionsInFlight inFlight = new PreemptionsInFlight();
        inFlight.record(pending, PreemptionDecision.notEligible(pending.ref(), "policy", Strategy.MINIMAL, 0), T0);
        assertThat(inFlight.of(twoFullNodes(true, false), pending, T0)).isNull();

        inFlight.record(pending, firstDecision(before, pending), T0);
        PodInfo other = pending.toBuilder().uid("other").name("other").build();
        assertThat(inFlight.of(twoFullNodes(true, false), other, T0)).isNull();
        assertThat(inFlight.of(twoFullNodes(true, false), pending, T0)).isNotNull();
    }
}
