package dev.makeroom.core.room;

/**
 * Where work lost ({@link WorkPrice}) is ranked in the {@link Objective}. Under either rank the
 * laws come first: fewest budget violations, then the lowest highest victim priority.
 */
public enum WorkRank {
    /** The work-lost objective: least work lost before the fewest victims. */
    BEFORE_COUNT,
    /**
     * The default objective: fewest victims and the least priority sum first, then least work lost as the
     * first gentleness tie-break, so that where counts tie the victims are the ones that lose least.
     */
    FIRST_TIE_BREAK
}
