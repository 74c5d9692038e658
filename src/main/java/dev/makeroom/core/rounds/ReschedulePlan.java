package dev.makeroom.core.rounds;

import java.util.List;

/**
 * One round's plan: the moves in order (each checked with the ones before it applied), what was not
 * moved, the room made for pending pods ({@code rooms}: their moves are among {@code moves}, first), and
 * what the consolidate policy does with each node it drains or tried ({@code drains}: its moves are among
 * {@code moves}).
 */
public record ReschedulePlan(List<Move> moves, List<Skip> skipped, List<RoomPlan> rooms, List<NodeDrain> drains) {

    public ReschedulePlan {
        moves = List.copyOf(moves);
        skipped = List.copyOf(skipped);
        rooms = List.copyOf(rooms);
        drains = List.copyOf(drains);
    }
}
