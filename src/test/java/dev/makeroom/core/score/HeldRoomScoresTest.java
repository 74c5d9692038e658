package dev.makeroom.core.score;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class HeldRoomScoresTest {

    private static final List<String> ASKED = List.of("a", "planned", "b");

    @Test
    void a_held_node_among_those_asked_scores_highest_and_the_rest_zero() {
        int[] scores = {9, 2, 7};

        assertThat(HeldRoomScores.steer(scores, ASKED, Set.of("planned"))).isTrue();
        assertThat(scores).containsExactly(0, ShieldScorePolicy.MAX_SCORE, 0);
    }

    @Test
    void scores_stay_as_they_are_when_no_room_is_held_among_those_asked() {
        int[] scores = {9, 2, 7};

        assertThat(HeldRoomScores.steer(scores, ASKED, Set.of())).isFalse();
        assertThat(HeldRoomScores.steer(scores, ASKED, Set.of("elsewhere"))).isFalse();
        assertThat(scores).containsExactly(9, 2, 7);
    }
}
