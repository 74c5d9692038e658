package dev.makeroom.core.room;

import java.util.Arrays;

/**
 * The cost of a victim set, compared lexicographically, smaller is better (README, How makeroom decides): PDB
 * violations, highest victim priority, number of victims, sum of victim priorities, work lost
 * ({@link WorkPrice}), then the {@link TieBreak}s in their order. Under the work-lost objective work
 * lost moves up to just before the number of victims ({@link WorkRank}). Every component only grows when a
 * victim is added, which is what makes the search's bounds sound. Running sums of it live in {@link ObjectiveSum}.
 */
public final class Objective implements Comparable<Objective> {

    private final long pdbViolations;
    private final long highestPriority;
    private final long workLost;
    private final long victims;
    private final long prioritySum;
    private final long[] tieBreaks; // indexed by TieBreak.ordinal()
    private final WorkRank workRank;

    /** An objective with no work lost. */
    public Objective(long pdbViolations, long highestPriority, long victims, long prioritySum, long[] tieBreaks) {
        this(pdbViolations, highestPriority, 0, victims, prioritySum, tieBreaks.clone(), WorkRank.FIRST_TIE_BREAK);
    }

    /** An objective with work lost ranked as {@code workRank} says. */
    public Objective(long pdbViolations, long highestPriority, long workLost, long victims, long prioritySum,
                     long[] tieBreaks, WorkRank workRank) {
        this(pdbViolations, highestPriority, workLost, victims, prioritySum, tieBreaks.clone(), workRank, true);
    }

    private Objective(long pdbViolations, long highestPriority, long workLost, long victims, long prioritySum,
                      long[] tieBreaks, WorkRank workRank, boolean owned) {
        this.pdbViolations = pdbViolations;
        this.highestPriority = highestPriority;
        this.workLost = workLost;
        this.victims = victims;
        this.prioritySum = prioritySum;
        this.tieBreaks = tieBreaks;
        this.workRank = workRank;
    }

    /** As the constructor, keeping {@code tieBreaks} itself: for a caller that made it for this objective alone. */
    static Objective owning(long pdbViolations, long highestPriority, long workLost, long victims, long prioritySum,
                            long[] tieBreaks, WorkRank workRank) {
        return new Objective(pdbViolations, highestPriority, workLost, victims, prioritySum, tieBreaks, workRank, true);
    }

    public long pdbViolations() {
        return pdbViolations;
    }

    /** {@code Long.MIN_VALUE} for the empty set. */
    public long highestPriority() {
        return highestPriority;
    }

    /** The work the victims lose, in milli-units of {@link WorkPrice} (0 where nothing priced it). */
    public long workLost() {
        return workLost;
    }

    /** Where {@link #workLost} is compared. */
    public WorkRank workRank() {
        return workRank;
    }

    public long victims() {
        return victims;
    }

    public long prioritySum() {
        return prioritySum;
    }

    public long tieBreak(TieBreak which) {
        return tieBreaks[which.ordinal()];
    }

    @Override
    public int compareTo(Objective o) {
        int c = compareBeforeTieBreaks(pdbViolations, highestPriority, workLost, victims, prioritySum, o);
        for (int t = 0; c == 0 && t < tieBreaks.length; t++) {
            c = Long.compare(tieBreaks[t], o.tieBreaks[t]);
        }
        return c;
    }

    /**
     * The given components against {@code o}'s, up to the tie-breaks, in the order {@code o}'s {@link WorkRank}
     * puts them: the one home of that order, for objectives and for the search's bounds ({@link ObjectiveSum}).
     * Written out rather than a Comparator chain: this runs for every explored search state.
     */
    static int compareBeforeTieBreaks(long pdbViolations, long highestPriority, long workLost, long victims,
                                      long prioritySum, Objective o) {
        boolean workFirst = o.workRank == WorkRank.BEFORE_COUNT;
        int c = Long.compare(pdbViolations, o.pdbViolations);
        if (c == 0) c = Long.compare(highestPriority, o.highestPriority);
        if (c == 0 && workFirst) c = Long.compare(workLost, o.workLost);
        if (c == 0) c = Long.compare(victims, o.victims);
        if (c == 0) c = Long.compare(prioritySum, o.prioritySum);
        if (c == 0 && !workFirst) c = Long.compare(workLost, o.workLost);
        return c;
    }

    public boolean isBetterThan(Objective o) {
        return compareTo(o) < 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Objective other && compareTo(other) == 0;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(pdbViolations) * 31 + Long.hashCode(prioritySum) * 17 + Long.hashCode(workLost) * 13
                + Arrays.hashCode(tieBreaks);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("Objective[pdbViolations=").append(pdbViolations)
                .append(", highestPriority=").append(highestPriority);
        boolean workFirst = workRank == WorkRank.BEFORE_COUNT;
        if (workFirst) {
            text.append(", workLost=").append(workLost);
        }
        text.append(", victims=").append(victims)
                .append(", prioritySum=").append(prioritySum);
        if (!workFirst) {
            text.append(", workLost=").append(workLost);
        }
        TieBreak.ALL.forEach(t -> text.append(", ").append(t.field()).append('=').append(tieBreak(t)));
        return text.append(']').toString();
    }
}
