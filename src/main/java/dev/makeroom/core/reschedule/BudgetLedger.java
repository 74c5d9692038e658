package dev.makeroom.core.reschedule;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.PodInfo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The PodDisruptionBudgets as a round spends them: each budget's {@code disruptionsAllowed} (its status,
 * as the disruption controller last wrote it) less the round's moves of pods it covers, planned
 * before. The one place every policy asks whether a budget lets a pod move: the Eviction API would
 * refuse one it does not (429), and a planner that kept choosing such a pod would never move the
 * movable ones beside it.
 */
final class BudgetLedger {

    private final ClusterSnapshot snapshot;
    private final Map<DisruptionBudget, Integer> spent = new HashMap<>();

    BudgetLedger(ClusterSnapshot snapshot) {
        this.snapshot = snapshot;
    }

    /** The first budget covering {@code pod} that allows no more disruptions this round, or null. */
    DisruptionBudget refusing(PodInfo pod) {
        return refusing(List.of(pod));
    }

    /** The first budget that {@code pods}, moved together after the round's moves so far, would pass, or null. */
    DisruptionBudget refusing(List<PodInfo> pods) {
        Map<DisruptionBudget, Integer> wanted = new HashMap<>();
        for (PodInfo pod : pods) {
            for (DisruptionBudget budget : snapshot.budgetsCovering(pod)) {
                int total = spent.getOrDefault(budget, 0) + wanted.merge(budget, 1, Integer::sum);
                if (total > budget.disruptionsAllowed()) {
                    return budget;
                }
            }
        }
        return null;
    }

    /** Counts a planned move of {@code pod} against every budget covering it. */
    void record(PodInfo pod) {
        snapshot.budgetsCovering(pod).forEach(b -> spent.merge(b, 1, Integer::sum));
    }

    /** Why {@code budget} keeps a pod in place, in words. */
    static String describe(DisruptionBudget budget) {
        return "PodDisruptionBudget " + budget + " allows no more disruptions now ("
                + budget.disruptionsAllowed() + " allowed)";
    }
}
