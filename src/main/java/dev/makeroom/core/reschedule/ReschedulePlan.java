package dev.makeroom.core.reschedule;

import java.util.List;

/** One round's plan: the moves in order (each checked with the ones before it applied), and what was not moved. */
public record ReschedulePlan(List<Move> moves, List<Skip> skipped) {

    public ReschedulePlan {
        moves = List.copyOf(moves);
        skipped = List.copyOf(skipped);
    }
}
