package dev.makeroom.core.preemption;

/** How much work a node's search took: states explored and nanoseconds spent. */
public record SearchStats(long statesExplored, long nanos) {
    public static final SearchStats NONE = new SearchStats(0, 0);
}
