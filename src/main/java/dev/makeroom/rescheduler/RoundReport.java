package dev.makeroom.rescheduler;

import dev.makeroom.core.reschedule.Move;
import dev.makeroom.core.reschedule.RoomPlan;
import dev.makeroom.core.reschedule.Skip;

import java.time.Instant;
import java.util.List;

/**
 * What one round did: each planned move with its result ({@code PLANNED} in a dry run, else the
 * eviction's), the room made for pending pods with its result, the pods not moved (and pending pods
 * not helped) and why, or why the round did not plan at all ({@code idle}).
 */
public record RoundReport(Instant at, ReschedulerMode mode, String idle, List<MoveResult> moves, List<Skip> skipped,
                          List<RoomResult> rooms, long nanos) {

    public record MoveResult(Move move, String result, String detail) {
    }

    /**
     * What came of room made for a pending pod: {@code PLANNED} (a dry run), {@code ENACTED} (every move
     * evicted), {@code PARTLY_ENACTED} (some: the room is held until it expires), {@code NOT_ENACTED}.
     */
    public record RoomResult(RoomPlan room, String result, String detail) {
    }

    public RoundReport {
        moves = List.copyOf(moves);
        skipped = List.copyOf(skipped);
        rooms = List.copyOf(rooms);
    }

    static RoundReport idle(Instant at, ReschedulerMode mode, String why) {
        return new RoundReport(at, mode, why, List.of(), List.of(), List.of(), 0);
    }
}
