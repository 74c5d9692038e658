package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SchedulersChoiceTest {

    private static final ClusterSnapshot CLUSTER = ClusterSnapshot.builder()
            .node("n1", Map.of(), Resources.of("cpu", 4000)).node("n2", Map.of(), Resources.of("cpu", 4000))
            .node("n3", Map.of(), Resources.of("cpu", 4000))
            .pod(pod("a", "n1", 10)).pod(pod("b", "n1", 10))
            .pod(pod("c", "n2", 50))
            .pod(pod("d", "n3", 10)).pod(pod("e", "n3", 5)).build();

    private static PodInfo pod(String name, String node, int priority) {
        return PodInfo.builder(name).name(name).nodeName(node).priority(priority).build();
    }

    @Test
    void the_scheduler_takes_fewest_violations_then_lowest_highest_priority_then_lowest_sum_then_fewest() {
        List<Candidate> offered = List.of(new Candidate("n2", List.of("c")), new Candidate("n1", List.of("a", "b")),
                new Candidate("n3", List.of("d", "e")));
        assertThat(SchedulersChoice.of(CLUSTER, offered)).isEqualTo(new SchedulersChoice("n3", 2, 15)); // sum 15 < 20
        List<Candidate> withBudgets = List.of(new Candidate("n3", List.of("d", "e"), 1), new Candidate("n1", List.of("a", "b")));
        assertThat(SchedulersChoice.of(CLUSTER, withBudgets)).isEqualTo(new SchedulersChoice("n1", 2, 20));
    }

    @Test
    void candidates_with_victims_makeroom_does_not_see_or_none_named_are_not_the_schedulers_pick() {
        assertThat(SchedulersChoice.of(CLUSTER, List.of(new Candidate("n1", List.of("gone")),
                new Candidate("n2", List.of())))).isNull();
    }

    @Test
    void it_says_how_makeroom_compares() {
        assertThat(new SchedulersChoice("n3", 2, 15).beside(1)).isEqualTo("1 victim where the scheduler's heuristic chose 2 (on n3)");
        assertThat(new SchedulersChoice("n3", 1, 10).beside(1)).isEqualTo("1 victim, as many as the scheduler's heuristic chose (on n3)");
    }
}
