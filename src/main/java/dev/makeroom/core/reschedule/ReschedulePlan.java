package dev.makeroom.core.reschedule;

import java.util.List;

/**
 * One round's plan: the moves in order (each checked with the ones before it applied), what was not
 * moved, and the room made for pending pods ({@code rooms}: their moves are among {@code moves}, first).
 */
public record ReschedulePlan(List<Move> moves, List<Skip> skipped, List<RoomPlan> rooms) {

    public ReschedulePlan {
        moves = List.copyOf(moves);
        skipped = List.copyOf(skipped);
        rooms = List.copyOf(rooms);
    }

    public ReschedulePlan(List<Move> moves, List<Skip> skipped) {
        this(moves, skipped, List.of());
    }
}
