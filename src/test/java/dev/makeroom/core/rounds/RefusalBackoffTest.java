package dev.makeroom.core.rounds;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RefusalBackoffTest {

    private static final int MAX = 5;

    /** Ends the round of the refusal, then counts the rounds after it that leave the pod out. */
    private static int roundsHeld(RefusalBackoff backoff, String uid) {
        backoff.roundDone(Set.of(uid));
        int rounds = 0;
        while (backoff.heldBack().contains(uid)) {
            backoff.roundDone(Set.of(uid));
            rounds++;
        }
        return rounds;
    }

    @Test
    void each_refusal_doubles_the_rounds_a_pod_stays_out_up_to_the_cap() {
        RefusalBackoff backoff = new RefusalBackoff();
        assertThat(backoff.refused("a", MAX)).isEqualTo(1);
        assertThat(roundsHeld(backoff, "a")).isEqualTo(1);
        assertThat(backoff.refused("a", MAX)).isEqualTo(2);
        assertThat(roundsHeld(backoff, "a")).isEqualTo(2);
        assertThat(backoff.refused("a", MAX)).isEqualTo(4);
        assertThat(roundsHeld(backoff, "a")).isEqualTo(4);
        assertThat(backoff.refused("a", MAX)).isEqualTo(5);
        assertThat(roundsHeld(backoff, "a")).isEqualTo(5);
        for (int i = 0; i < 40; i++) {
            backoff.refused("a", MAX);
        }
        assertThat(backoff.refused("a", MAX)).isEqualTo(5);
    }

    @Test
    void an_eviction_or_a_pod_gone_ends_its_record() {
        RefusalBackoff backoff = new RefusalBackoff();
        backoff.refused("evicted", MAX);
        backoff.refused("evicted", MAX);
        backoff.refused("gone", MAX);
        backoff.forget("evicted");
        assertThat(backoff.heldBack()).containsExactly("gone");
        backoff.roundDone(Set.of("evicted")); // "gone" is no longer in the cluster
        assertThat(backoff.size()).isZero();
        assertThat(backoff.refused("evicted", MAX)).as("counting starts again").isEqualTo(1);
    }

    @Test
    void a_cap_below_one_round_is_refused() {
        assertThatThrownBy(() -> new RefusalBackoff().refused("a", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
