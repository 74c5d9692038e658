package dev.makeroom.core.room;

/**
 * How much work a node's search took: states explored and nanoseconds spent; and, when it ran out
 * of time, what it left unproven ({@code gap}, null otherwise).
 */
public record SearchStats(long statesExplored, long nanos, OptimalityGap gap) {
    public static final SearchStats NONE = new SearchStats(0, 0);

    public SearchStats(long statesExplored, long nanos) {
        this(statesExplored, nanos, null);
    }
}
