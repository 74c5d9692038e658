package dev.makeroom.rescheduler;

import dev.makeroom.core.reschedule.Move;
import dev.makeroom.core.reschedule.Skip;

import java.time.Instant;
import java.util.List;

/**
 * What one round did: each planned move with its result ({@code PLANNED} in a dry run, else the
 * eviction's), the pods not moved and why, or why the round did not plan at all ({@code idle}).
 */
public record RoundReport(Instant at, ReschedulerMode mode, String idle, List<MoveResult> moves, List<Skip> skipped,
                          long nanos) {

    public record MoveResult(Move move, String result, String detail) {
    }

    public RoundReport {
        moves = List.copyOf(moves);
        skipped = List.copyOf(skipped);
    }

    static RoundReport idle(Instant at, ReschedulerMode mode, String why) {
        return new RoundReport(at, mode, why, List.of(), List.of(), 0);
    }
}
