package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.PodInfo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The PodDisruptionBudgets as a round spends them: each budget's {@code disruptionsAllowed} (its status,
 * as the disruption controller last wrote it), as far as the {@link Aggressiveness} lets the rounds
 * spend it, less the round's moves of pods it covers, planned before. The one place every policy asks whether a budget lets a pod move: the Eviction API would
 * refuse one it does not (429), and a planner that kept choosing such a pod would never move the
 * movable ones beside it.
 */
public final class BudgetLedger {

    private final ClusterSnapshot snapshot;
    private final Aggressiveness aggressiveness;
    private final List<PastEviction> lastHour;
    private final Map<DisruptionBudget, Integer> spent = new HashMap<>();
    private final Map<DisruptionBudget, Integer> usable = new HashMap<>();

    BudgetLedger(ClusterSnapshot snapshot) {
        this(snapshot, Aggressiveness.MODERATE, List.of());
    }

    /** With what {@code aggressiveness} lets a round spend, counting {@code lastHour}'s evictions (gentle only). */
    BudgetLedger(ClusterSnapshot snapshot, Aggressiveness aggressiveness, List<PastEviction> lastHour) {
        this.snapshot = snapshot;
        this.aggressiveness = aggressiveness;
        this.lastHour = lastHour;
    }

    /** What the round may spend of {@code budget}: its allowance as the aggressiveness reads it. */
    private int usable(DisruptionBudget budget) {
        return usable.computeIfAbsent(budget, b -> {
            int spentInHour = 0;
            for (PastEviction past : lastHour) {
                if (b.selects(past.namespace(), past.labels())) {
                    spentInHour++;
                }
            }
            return aggressiveness.usable(b.disruptionsAllowed(), spentInHour);
        });
    }

    /** The first budget covering {@code pod} that allows no more disruptions this round. */
    public Optional<DisruptionBudget> refusing(PodInfo pod) {
        return refusing(List.of(pod));
    }

    /** The first budget that {@code pods}, moved together after the round's moves so far, would pass. */
    public Optional<DisruptionBudget> refusing(List<PodInfo> pods) {
        Map<DisruptionBudget, Integer> wanted = new HashMap<>();
        for (PodInfo pod : pods) {
            for (DisruptionBudget budget : snapshot.budgetsCovering(pod)) {
                int total = spent.getOrDefault(budget, 0) + wanted.merge(budget, 1, Integer::sum);
                if (DisruptionBudget.violationsAt(total, usable(budget)) > 0) {
                    return Optional.of(budget);
                }
            }
        }
        return Optional.empty();
    }

    /** Counts a planned move of {@code pod} against every budget covering it. */
    public void record(PodInfo pod) {
        snapshot.budgetsCovering(pod).forEach(b -> spent.merge(b, 1, Integer::sum));
    }

    /** Why {@code budget} keeps a pod in place, in words. */
    public String describe(DisruptionBudget budget) {
        String allowed = budget.disruptionsAllowed() + " allowed";
        if (usable(budget) < budget.disruptionsAllowed()) {
            allowed += "; " + aggressiveness.name().toLowerCase(java.util.Locale.ROOT) + " spends at most "
                    + usable(budget) + " now";
        }
        return "PodDisruptionBudget " + budget + " allows no more disruptions now (" + allowed + ")";
    }
}
