package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.rounds.affinity.AffinityPolicy;
import dev.makeroom.core.rounds.rebalance.RebalancePolicy;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A plan that moves nothing says why: no policy on, nothing out of place, or every candidate skipped. */
class ReschedulePlanTest {

    private static Skip skip(String pod, SkipCategory category) {
        return new Skip(new PodRef("shop", pod, "uid-" + pod), "node-1", RebalancePolicy.KIND, category, "why not");
    }

    @Test
    void a_plan_without_a_policy_on_says_so() {
        ReschedulePlan plan = new ReschedulePlan(List.of(), List.of(), List.of(), List.of(), List.of());
        assertThat(plan.nothingMoved()).map(ReschedulePlan.NothingMoved::why).contains(ReschedulePlan.Why.NO_POLICY_ON);
    }

    @Test
    void a_plan_whose_policies_found_nothing_names_them() {
        ReschedulePlan plan = new ReschedulePlan(List.of(AffinityPolicy.KIND, RebalancePolicy.KIND),
                List.of(), List.of(), List.of(), List.of());
        assertThat(plan.nothingMoved()).get().isEqualTo(new ReschedulePlan.NothingMoved(
                ReschedulePlan.Why.NOTHING_OUT_OF_PLACE, "the policies on (affinity, rebalance) found nothing out of place"));
    }

    @Test
    void a_plan_whose_candidates_were_all_skipped_counts_them_by_category() {
        ReschedulePlan plan = new ReschedulePlan(List.of(RebalancePolicy.KIND), List.of(),
                List.of(skip("a", SkipCategory.LIMIT), skip("b", SkipCategory.BUDGET), skip("c", SkipCategory.LIMIT)),
                List.of(), List.of());
        assertThat(plan.nothingMoved()).get().isEqualTo(new ReschedulePlan.NothingMoved(
                ReschedulePlan.Why.EVERY_CANDIDATE_SKIPPED, "every candidate was skipped (2 LIMIT, 1 BUDGET): see skipped"));
    }

    @Test
    void a_plan_that_moves_a_pod_has_nothing_to_explain() {
        Move move = new Move(new PodRef("shop", "a", "uid-a"), "node-1", "node-2", RebalancePolicy.KIND, "above cpu 75%");
        ReschedulePlan plan = new ReschedulePlan(List.of(RebalancePolicy.KIND), List.of(move),
                List.of(skip("b", SkipCategory.LIMIT)), List.of(), List.of());
        assertThat(plan.nothingMoved()).isEmpty();
    }
}
