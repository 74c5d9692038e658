package dev.makeroom.core.room;

/**
 * What a search that ran out of time left open, on the first part of the {@link Objective} where
 * its best set and what it could prove of every set differ: {@code found} in the best set, and the
 * least any set might have ({@code atLeast}). When the search could prove the first three parts
 * (violations, highest priority, count) but not the gentler tie-breaks, {@code part} is
 * {@link Part#TIE_BREAKS} and the two values are the count.
 */
public record OptimalityGap(Part part, long found, long atLeast) {

    public enum Part { PDB_VIOLATIONS, HIGHEST_PRIORITY, WORK_LOST, VICTIMS, TIE_BREAKS }

    /** In words, for decisions and logs. */
    public String describe() {
        return switch (part) {
            case PDB_VIOLATIONS -> "the best set found goes " + found + " disruption(s) beyond PodDisruptionBudgets; "
                    + "a set might go as few as " + atLeast + " beyond";
            case HIGHEST_PRIORITY -> "the best set found evicts up to priority " + found
                    + "; a set of priority " + atLeast + " or lower might do";
            case WORK_LOST -> String.format(java.util.Locale.ROOT, "the best set found loses %.2f hours of work; "
                    + "a set might lose as little as %.2f", WorkPrice.hours(found), WorkPrice.hours(atLeast));
            case VICTIMS -> "the best set found evicts " + found + " pod(s); no set does with fewer than " + atLeast
                    + ", a set between might exist";
            case TIE_BREAKS -> "the best set found evicts " + found + " pod(s), the fewest possible at its priority; "
                    + "a gentler set of as many might exist";
        };
    }
}
