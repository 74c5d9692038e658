package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodRef;

import java.time.Instant;
import java.util.List;

/**
 * Room made for a pending pod by moving others: evict {@code moves} (each checked to land elsewhere,
 * together), after which {@code pending} fits on {@code node}; the node is held for it until
 * {@code reserveUntil}. {@code proven}: no better plan exists (false when the search ran out of time
 * after verifying this one).
 */
public record RoomPlan(PodRef pending, String node, List<Move> moves, Instant reserveUntil, boolean proven) {

    public RoomPlan {
        moves = List.copyOf(moves);
    }
}
