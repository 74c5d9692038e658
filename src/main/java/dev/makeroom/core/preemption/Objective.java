package dev.makeroom.core.preemption;

import java.util.Comparator;

/**
 * The cost of a victim set, compared lexicographically, smaller is better (DESIGN §2): PDB
 * violations, highest victim priority, number of victims, sum of victim priorities, then the
 * gentleness tie-breaks (QoS ranks, originators, grace periods, ages: see {@link Age}). Every component only
 * grows when a victim is added, which is what makes the search's bounds sound.
 */
public record Objective(long pdbViolations, long highestPriority, long victims, long prioritySum,
                        long qosRankSum, long originators, long gracePeriodSum, long ageSum)
        implements Comparable<Objective> {

    private static final Comparator<Objective> ORDER = Comparator
            .comparingLong(Objective::pdbViolations)
            .thenComparingLong(Objective::highestPriority)
            .thenComparingLong(Objective::victims)
            .thenComparingLong(Objective::prioritySum)
            .thenComparingLong(Objective::qosRankSum)
            .thenComparingLong(Objective::originators)
            .thenComparingLong(Objective::gracePeriodSum)
            .thenComparingLong(Objective::ageSum);

    @Override
    public int compareTo(Objective o) {
        return ORDER.compare(this, o);
    }

    public boolean isBetterThan(Objective o) {
        return compareTo(o) < 0;
    }
}
