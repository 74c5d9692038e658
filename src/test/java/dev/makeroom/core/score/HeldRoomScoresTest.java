package dev.makeroom.core.score;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class HeldRoomScoresTest {

    private static final List<NodeScore> SHIELD = List.of(new NodeScore("a", 9), new NodeScore("planned", 2),
            new NodeScore("b", 7));

    @Test
    void a_held_node_among_those_asked_scores_highest_and_the_rest_zero() {
        assertThat(HeldRoomScores.steer(SHIELD, Set.of("planned"))).containsExactly(new NodeScore("a", 0),
                new NodeScore("planned", ShieldScorePolicy.MAX_SCORE), new NodeScore("b", 0));
    }

    @Test
    void scores_stay_as_they_are_when_no_room_is_held_among_those_asked() {
        assertThat(HeldRoomScores.steer(SHIELD, Set.of())).isSameAs(SHIELD);
        assertThat(HeldRoomScores.steer(SHIELD, Set.of("elsewhere"))).isSameAs(SHIELD);
    }
}
