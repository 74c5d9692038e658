package dev.makeroom.core.room;

import java.util.function.LongSupplier;

/** A point on an injected nanosecond clock after which a search stops and keeps its best. */
public record Deadline(LongSupplier clock, long atNanos) {

    public static Deadline after(LongSupplier clock, long budgetNanos) {
        return new Deadline(clock, clock.getAsLong() + budgetNanos);
    }

    public boolean passed() {
        return clock.getAsLong() >= atNanos;
    }

    /** A share of what is left, for one of {@code parts} pieces of work still to do. */
    public Deadline slice(int parts) {
        long now = clock.getAsLong();
        return new Deadline(clock, now + Math.max(0, atNanos - now) / Math.max(1, parts));
    }
}
