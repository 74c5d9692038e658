package dev.makeroom.rescheduler;

import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.NodeDrain;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.RoomPlan;
import dev.makeroom.core.rounds.Skip;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What one round did: the policies it ran under ({@code ran}), each planned move with its result
 * ({@code PLANNED} in a dry run, else the eviction's), the room made for pending pods with its result,
 * the pods not moved (and pending pods not helped) and why, what came of the consolidate policy's nodes
 * ({@code drains}), or why the round did not plan at all ({@code idle}), and the moved pods' landings
 * that closed ({@code landings}).
 */
public record RoundReport(Instant at, ReschedulerMode mode, String idle, List<ReschedulePolicy> ran, List<MoveResult> moves,
                          List<Skip> skipped, List<RoomResult> rooms, List<DrainResult> drains,
                          List<LandingResult> landings, long nanos) {

    /**
     * A moved pod's landing that closed this round: where makeroom proved its replacement fits
     * ({@code planned}), and where the replacement bound ({@code landed}, null when none did in time).
     */
    public record LandingResult(PodRef moved, String planned, String landed, LandingOutcome result) {
    }

    public enum LandingOutcome {
        /** The replacement bound on the planned node. */
        AS_PLANNED,
        /** The replacement bound on another node: the planned one stopped fitting, or the scheduler did not ask about it. */
        ELSEWHERE,
        /** No replacement bound before the landing's time was up. */
        EXPIRED
    }

    public record MoveResult(Move move, MoveOutcome result, String detail) {
    }

    /** What came of one planned move. */
    public enum MoveOutcome {
        /** A dry run: planned, not enacted. */
        PLANNED,
        EVICTED,
        /** 429: a PodDisruptionBudget does not allow it now. */
        BLOCKED_BY_BUDGET,
        /** 404: the pod was gone already. */
        GONE,
        /** The API answered otherwise; tried again in a later round if still planned. */
        FAILED,
        /** Not sent: what it counted on did not happen, or the view went stale. */
        NOT_TRIED,
        /** Not sent: this replica lost the lease during the round. */
        NOT_LEADING;

        /** A switch, not a lookup by name: an API result added without its outcome does not compile. */
        static MoveOutcome of(Evictor.EvictionOutcome.Result result) {
            return switch (result) {
                case EVICTED -> EVICTED;
                case BLOCKED_BY_BUDGET -> BLOCKED_BY_BUDGET;
                case GONE -> GONE;
                case FAILED -> FAILED;
            };
        }
    }

    /** What came of room made for a pending pod. */
    public record RoomResult(RoomPlan room, RoomOutcome result, String detail) {
    }

    public enum RoomOutcome {
        /** A dry run: planned, not enacted. */
        PLANNED,
        /** Every move evicted. */
        ENACTED,
        /** Some moves evicted: the room stays held until it expires. */
        PARTLY_ENACTED,
        NOT_ENACTED
    }

    /** What came of one node the consolidate policy drains or tried. */
    public record DrainResult(NodeDrain drain, DrainOutcome result, String detail) {
    }

    public enum DrainOutcome {
        /** A dry run: planned, not enacted. */
        PLANNED,
        /** Tainted; its evictions began. */
        STARTED,
        /** Still draining. */
        CONTINUED,
        /** Emptied: kept tainted, marked empty, for the cluster autoscaler to remove. */
        EMPTIED,
        /** Kept empty its time and not removed: untainted, back in service. */
        RELEASED,
        /** Untainted without being emptied: a landing no longer held, the time ran out, an eviction was refused or failed. */
        ABANDONED,
        /** Not started: a pod may not move or does not land; not tried again for a while. */
        NOT_STARTED,
        /** The taint could not be written or removed; nothing was evicted for it, or the next round tries again. */
        API_FAILED
    }

    public RoundReport {
        ran = List.copyOf(ran);
        moves = List.copyOf(moves);
        skipped = List.copyOf(skipped);
        rooms = List.copyOf(rooms);
        drains = List.copyOf(drains);
        landings = List.copyOf(landings);
    }

    static RoundReport idle(Instant at, ReschedulerMode mode, String why) {
        return new RoundReport(at, mode, why, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), 0);
    }

    /** Why a round that planned moved nothing (empty when it moved something, or did not plan: see {@code idle}). */
    public Optional<ReschedulePlan.NothingMoved> nothingMoved() {
        return idle != null ? Optional.empty() : ReschedulePlan.nothingMoved(ran, moves.size(), skipped);
    }
}
