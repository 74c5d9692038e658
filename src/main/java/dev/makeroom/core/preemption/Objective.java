package dev.makeroom.core.preemption;

/**
 * The cost of a victim set, compared lexicographically, smaller is better (README, How makeroom decides): PDB
 * violations, highest victim priority, number of victims, sum of victim priorities, then the
 * gentleness tie-breaks (QoS ranks, originators, grace periods, ages: see {@link Age}). Every component only
 * grows when a victim is added, which is what makes the search's bounds sound.
 */
public record Objective(long pdbViolations, long highestPriority, long victims, long prioritySum,
                        long qosRankSum, long originators, long gracePeriodSum, long ageSum)
        implements Comparable<Objective> {

    @Override
    public int compareTo(Objective o) {
        // written out rather than a Comparator chain: this runs for every explored search state
        int c = Long.compare(pdbViolations, o.pdbViolations);
        if (c == 0) c = Long.compare(highestPriority, o.highestPriority);
        if (c == 0) c = Long.compare(victims, o.victims);
        if (c == 0) c = Long.compare(prioritySum, o.prioritySum);
        if (c == 0) c = Long.compare(qosRankSum, o.qosRankSum);
        if (c == 0) c = Long.compare(originators, o.originators);
        if (c == 0) c = Long.compare(gracePeriodSum, o.gracePeriodSum);
        if (c == 0) c = Long.compare(ageSum, o.ageSum);
        return c;
    }

    public boolean isBetterThan(Objective o) {
        return compareTo(o) < 0;
    }
}
