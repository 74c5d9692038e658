package dev.makeroom.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Staleness is the time since a kind was last known current, not since its last event. */
class ViewFreshnessTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void a_kind_marked_current_is_not_stale_however_long_ago_its_last_event_was() {
        ViewFreshness freshness = new ViewFreshness(0);
        for (long t = 1; t <= 3600; t++) {
            freshness.current(ClusterEvent.Kind.PDB, t * SECOND); // the applier's poll, once a second, no events
        }
        assertThat(freshness.staleSeconds(ClusterEvent.Kind.PDB, 3600 * SECOND + SECOND / 2)).isEqualTo(0.5);
    }

    @Test
    void a_kind_never_marked_again_grows_stale_and_an_older_mark_never_turns_it_back() {
        ViewFreshness freshness = new ViewFreshness(0);
        freshness.current(ClusterEvent.Kind.POD, 10 * SECOND);
        freshness.current(ClusterEvent.Kind.POD, 5 * SECOND);

        assertThat(freshness.staleSeconds(ClusterEvent.Kind.POD, 130 * SECOND)).isEqualTo(120.0);
        assertThat(freshness.staleSeconds(ClusterEvent.Kind.NODE, 130 * SECOND)).isEqualTo(130.0);
    }
}
