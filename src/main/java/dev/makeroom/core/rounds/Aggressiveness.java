package dev.makeroom.core.rounds;

/**
 * How hard the rescheduler pushes, as the controlled-rescheduling proposal puts it: an aggressive one
 * acts on smaller imbalances and may spend all of a disruption budget; a gentle one waits for larger
 * ones and leaves plenty of buffer in the budgets. It sets defaults that explicit keys of the policies
 * document override: the rebalance thresholds (cpu and memory) and the preferred-affinity gain; and,
 * always, how much of each PodDisruptionBudget the rounds may spend ({@link BudgetLedger}).
 */
public enum Aggressiveness {
    /** Rebalance above 90% to below 20%; never a budget's last allowed disruption, at most a quarter of them an hour. */
    GENTLE(20, 90, 100),
    /** Rebalance above 80% to below 30%; a budget's allowed disruptions may all be spent. */
    MODERATE(30, 80, 50),
    /** Rebalance above 70% to below 40%; a budget's allowed disruptions may all be spent. */
    AGGRESSIVE(40, 70, 20);

    private final int lowPercent;
    private final int highPercent;
    private final int minGain;

    Aggressiveness(int lowPercent, int highPercent, int minGain) {
        this.lowPercent = lowPercent;
        this.highPercent = highPercent;
        this.minGain = minGain;
    }

    public int lowPercent() {
        return lowPercent;
    }

    public int highPercent() {
        return highPercent;
    }

    public int minGain() {
        return minGain;
    }

    /**
     * How many of a budget's {@code allowed} disruptions a round may take, given {@code spentInHour}
     * taken already in the last hour (gentle: never the last, and at most a quarter an hour).
     */
    int usable(int allowed, int spentInHour) {
        if (this != GENTLE) {
            return allowed;
        }
        return Math.max(0, Math.min(allowed - 1, allowed / 4 - spentInHour));
    }
}
