package dev.makeroom.observability;

import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.preemption.PackedDecision;
import dev.makeroom.core.preemption.PreemptionDecision;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;

/**
 * The last N preemption decisions, as values, for the debug API: newest first, bounded. Kept packed
 * ({@link PackedDecision}): a decision of 500 nodes kept as objects made every young collection copy
 * thousands of them per decision since the last one.
 */
public final class DecisionLog {

    /** A decision and when it was made. */
    public record Entry(Instant at, PreemptionDecision decision) {
    }

    private record Kept(Instant at, PackedDecision decision) {
    }

    private final int capacity;
    private final Deque<Kept> entries = new ArrayDeque<>();

    public DecisionLog(int capacity) {
        this.capacity = Math.max(1, capacity);
    }

    public void add(Instant at, PreemptionDecision decision) {
        Kept kept = new Kept(at, PackedDecision.of(decision)); // packed outside the lock
        synchronized (this) {
            if (entries.size() == capacity) {
                entries.removeLast();
            }
            entries.addFirst(kept);
        }
    }

    public List<Entry> newestFirst() {
        return newestFirst(pod -> true);
    }

    /** The decisions for the pods {@code of} accepts, newest first (only those are unpacked). */
    public List<Entry> newestFirst(Predicate<PodRef> of) {
        List<Kept> kept;
        synchronized (this) {
            kept = new ArrayList<>(entries);
        }
        return kept.stream().filter(k -> of.test(k.decision().pod()))
                .map(k -> new Entry(k.at(), k.decision().unpack())).toList();
    }
}
