package dev.makeroom.core.rounds;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SkipCategoryTest {

    @Test
    void each_blocker_counts_under_its_own_category_and_no_two_share_one() {
        java.util.Set<SkipCategory> seen = new java.util.HashSet<>();
        for (MoveBlocker blocker : MoveBlocker.values()) {
            SkipCategory category = SkipCategory.of(blocker);
            assertThat(category.label()).as(blocker.name()).isEqualTo(blocker.name().toLowerCase(java.util.Locale.ROOT));
            assertThat(seen.add(category)).as(blocker + " shares " + category).isTrue();
        }
    }
}
