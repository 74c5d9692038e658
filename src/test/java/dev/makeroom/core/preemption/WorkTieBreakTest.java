package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.Strategy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static dev.makeroom.core.preemption.Scenario.NOW;
import static dev.makeroom.core.preemption.Scenario.pending;
import static dev.makeroom.core.preemption.Scenario.pod;
import static dev.makeroom.core.preemption.Scenario.victimNames;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default objective's first gentleness tie-break (docs/decisions.md): where sets tie on budgets,
 * priorities and count, the one that loses the least work goes, before the QoS class is asked.
 */
class WorkTieBreakTest {

    /** One cpu, started {@code hoursAgo} before the engines' clock. */
    private static dev.makeroom.core.model.PodInfo.Builder started(String name, QosClass qos, double hoursAgo) {
        return pod(name, 0, "cpu", 1000).qos(qos).startTime(NOW.minus(Duration.ofMinutes(Math.round(hoursAgo * 60))));
    }

    @Test
    void of_two_pods_that_each_make_room_the_one_that_loses_less_goes_even_if_it_is_guaranteed() {
        ClusterSnapshot snapshot = new Scenario().node("n", "cpu", 2000)
                .on("n", started("trained-ten-hours", QosClass.BURSTABLE, 10))
                .on("n", started("started-half-an-hour-ago", QosClass.GUARANTEED, 0.5)).snapshot();

        NodeVerdict verdict = Scenario.minimal().decide(snapshot, pending(10, "cpu", 1000), List.of("n")).verdicts().get(0);

        assertThat(victimNames(verdict)).containsExactly("started-half-an-hour-ago");
        assertThat(verdict.victims().objective().workLost()).isEqualTo(1000L * 1800);
    }

    @Test
    void a_node_whose_cheapest_single_loses_less_is_not_settled_by_its_first_in_qos() {
        // node a answers first: one pod an hour in. On b the burstable pod comes first by QoS, but the
        // guaranteed one loses half as much as a's: b must not be called dominated by a.
        ClusterSnapshot snapshot = new Scenario().node("a", "cpu", 1000).node("b", "cpu", 2000)
                .on("a", started("an-hour-in", QosClass.GUARANTEED, 1))
                .on("b", started("ten-hours-in", QosClass.BURSTABLE, 10))
                .on("b", started("half-an-hour-in", QosClass.GUARANTEED, 0.5)).snapshot();

        PreemptionDecision decision = Scenario.engine(Strategy.MINIMAL, PdbMode.PREFER, AnswerMode.BEST)
                .decide(snapshot, pending(10, "cpu", 1000), List.of("a", "b"));

        NodeVerdict chosen = decision.chosen().get(0);
        assertThat(chosen.node()).isEqualTo("b");
        assertThat(victimNames(chosen)).containsExactly("half-an-hour-in");
    }
}
