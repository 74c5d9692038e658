package dev.makeroom.core.rounds;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One round's plan: the policies the document turns on ({@code ran}, in the order they ran), the moves in order
 * (each checked with the ones before it applied), what was not moved, the room made for pending pods
 * ({@code rooms}: their moves are among {@code moves}, first), and what the consolidate policy does with
 * each node it drains or tried ({@code drains}: its moves are among {@code moves}).
 */
public record ReschedulePlan(List<ReschedulePolicy> ran, List<Move> moves, List<Skip> skipped, List<RoomPlan> rooms,
                             List<NodeDrain> drains) {

    public ReschedulePlan {
        ran = List.copyOf(ran);
        moves = List.copyOf(moves);
        skipped = List.copyOf(skipped);
        rooms = List.copyOf(rooms);
        drains = List.copyOf(drains);
    }

    /** Why a plan moves nothing, in kind and in words. */
    public record NothingMoved(Why why, String reason) {
    }

    public enum Why {
        /** The document turns no policy on. */
        NO_POLICY_ON,
        /** The policies on found no pod out of place (nor a pending pod to make room for). */
        NOTHING_OUT_OF_PLACE,
        /** Every pod a policy would move was skipped: limits, budgets, blockers, no landing (see the skips). */
        EVERY_CANDIDATE_SKIPPED
    }

    /** Why nothing moves, when nothing does. */
    public Optional<NothingMoved> nothingMoved() {
        return nothingMoved(ran, moves.size(), skipped);
    }

    /** Why a round that ran {@code ran}, moved {@code moved} pods and skipped {@code skipped} moved nothing. */
    public static Optional<NothingMoved> nothingMoved(List<ReschedulePolicy> ran, int moved, List<Skip> skipped) {
        if (moved > 0) {
            return Optional.empty();
        }
        if (ran.isEmpty()) {
            return Optional.of(new NothingMoved(Why.NO_POLICY_ON, "no policy is on: the policies document turns none on"));
        }
        if (skipped.isEmpty()) {
            return Optional.of(new NothingMoved(Why.NOTHING_OUT_OF_PLACE, "the policies on (" + spelled(ran)
                    + ") found nothing out of place"));
        }
        Map<SkipCategory, Long> byCategory = skipped.stream()
                .collect(Collectors.groupingBy(Skip::category, TreeMap::new, Collectors.counting()));
        return Optional.of(new NothingMoved(Why.EVERY_CANDIDATE_SKIPPED, "every candidate was skipped ("
                + byCategory.entrySet().stream().map(e -> e.getValue() + " " + e.getKey().name())
                .collect(Collectors.joining(", ")) + "): see skipped"));
    }

    private static String spelled(List<ReschedulePolicy> policies) {
        return policies.stream().map(p -> p.name().toLowerCase(java.util.Locale.ROOT)).collect(Collectors.joining(", "));
    }
}
