package dev.makeroom.observability;

import dev.makeroom.core.preemption.PreemptionDecision;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** The last N preemption decisions, as values, for the debug API: newest first, bounded. */
public final class DecisionLog {

    /** A decision and when it was made. */
    public record Entry(Instant at, PreemptionDecision decision) {
    }

    private final int capacity;
    private final Deque<Entry> entries = new ArrayDeque<>();

    public DecisionLog(int capacity) {
        this.capacity = Math.max(1, capacity);
    }

    public synchronized void add(Instant at, PreemptionDecision decision) {
        if (entries.size() == capacity) {
            entries.removeLast();
        }
        entries.addFirst(new Entry(at, decision));
    }

    public synchronized List<Entry> newestFirst() {
        return new ArrayList<>(entries);
    }
}
