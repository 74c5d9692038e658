package dev.makeroom.core.model;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** A budget's violations: the evictions beyond what it allows, never fewer than none. */
class DisruptionBudgetTest {

    @Test
    void counts_only_the_evictions_beyond_what_it_allows() {
        DisruptionBudget twoAllowed = new DisruptionBudget("team", "web", new LabelSelector(Map.of("app", "web"), List.of()), 2, Set.of());

        assertThat(twoAllowed.violationsAt(0)).isZero();
        assertThat(twoAllowed.violationsAt(2)).isZero();
        assertThat(twoAllowed.violationsAt(3)).isEqualTo(1);
        assertThat(twoAllowed.violationsAt(5)).isEqualTo(3);
    }

    @Test
    void a_budget_allowing_none_is_violated_by_each_eviction() {
        DisruptionBudget none = new DisruptionBudget("team", "db", new LabelSelector(Map.of("app", "db"), List.of()), 0, Set.of());

        assertThat(none.violationsAt(1)).isEqualTo(1);
        assertThat(none.violationsAt(4)).isEqualTo(4);
    }
}
