package dev.makeroom.core.room;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The words a decision shows for what a search out of time left open. */
class OptimalityGapTest {

    @Test
    void each_part_is_said_with_both_values() {
        assertThat(new OptimalityGap(OptimalityGap.Part.PDB_VIOLATIONS, 3, 1).describe())
                .isEqualTo("the best set found goes 3 disruption(s) beyond PodDisruptionBudgets; "
                        + "a set might go as few as 1 beyond");
        assertThat(new OptimalityGap(OptimalityGap.Part.HIGHEST_PRIORITY, 60, 50).describe())
                .isEqualTo("the best set found evicts up to priority 60; a set of priority 50 or lower might do");
        assertThat(new OptimalityGap(OptimalityGap.Part.VICTIMS, 34, 29).describe())
                .isEqualTo("the best set found evicts 34 pod(s); no set does with fewer than 29, a set between might exist");
        assertThat(new OptimalityGap(OptimalityGap.Part.TIE_BREAKS, 16, 16).describe())
                .isEqualTo("the best set found evicts 16 pod(s), the fewest possible at its priority; "
                        + "a gentler set of as many might exist");
    }
}
