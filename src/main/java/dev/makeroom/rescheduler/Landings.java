package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.RoomHold;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The holds the leader keeps on nodes, from opening to closing: a moved pod's landing is opened before
 * its eviction and closed (once) when its replacement binds or its time runs out, saying where the
 * replacement went; a pending pod's hold is ended when its pod bound or went. Landings closed between
 * rounds are kept for the next round's report.
 */
final class Landings {

    private static final Logger log = LoggerFactory.getLogger(Rescheduler.class); // the rescheduler's own lines, as before

    private final RoomHold hold;
    private final Duration landingFor;
    private final Map<String, Instant> closed = new HashMap<>(); // moved pod uid -> until: never closed twice
    private final List<RoundReport.LandingResult> closedSinceRound = new ArrayList<>();

    /** {@code landingFor}: how long a moved pod's replacement is steered to where its move was proven. */
    Landings(RoomHold hold, Duration landingFor) {
        this.hold = hold;
        this.landingFor = landingFor;
    }

    /**
     * Holds the room {@code move} proved on its target for the moved pod's replacement, before the
     * eviction: the extender then steers the replacement there ({@link Reservation}). Whether it was held.
     */
    boolean open(PodInfo pod, Move move, Instant now) {
        Reservation landing = Reservation.landing(pod, now, now.plus(landingFor));
        if (landing == null) {
            return false;
        }
        if (!hold.reserve(move.to(), landing)) {
            log.info("rescheduler: could not hold {} for the replacement of {}; the scheduler places it unsteered",
                    move.to(), pod.ref());
            return false;
        }
        return true;
    }

    /** Ends the pending pods' holds whose pod bound, is gone, or whose time is up, so the nodes' annotations stay true. */
    void releaseEnded(ClusterSnapshot snapshot, Instant now) {
        for (NodeInfo node : snapshot.nodesWithReservations().values()) {
            for (Reservation reservation : node.admission().reservations()) {
                if (!reservation.isLanding() && !reservation.holdsIn(snapshot, now)) {
                    hold.release(node.name(), reservation.pod().uid());
                }
            }
        }
    }

    /**
     * Removes the landings served (a replacement bound on their node) or out of time, and says where each
     * replacement went. One the view still shows after it was removed is not closed again.
     */
    List<RoundReport.LandingResult> close(ClusterSnapshot snapshot, Instant now) {
        closed.values().removeIf(until -> !until.isAfter(now.minus(landingFor)));
        List<RoundReport.LandingResult> results = new ArrayList<>();
        for (NodeInfo node : snapshot.nodesWithReservations().values()) {
            List<Reservation> holding = Reservation.holdingOn(node, snapshot, now);
            for (Reservation reservation : node.admission().reservations()) {
                if (!reservation.isLanding() || holding.contains(reservation)) {
                    continue; // a pending pod's hold, or a landing still open: no replacement bound here yet, time left
                }
                if (closed.containsKey(reservation.pod().uid())) {
                    hold.release(node.name(), reservation.pod().uid()); // removed before; the view had not seen it yet
                    continue;
                }
                // served here, or out of time: then wherever a replacement went
                PodInfo replacement = reservation.replacementIn(snapshot, node.name());
                String landed = replacement == null ? null : replacement.nodeName();
                RoundReport.LandingOutcome result = landed == null ? RoundReport.LandingOutcome.EXPIRED
                        : landed.equals(node.name()) ? RoundReport.LandingOutcome.AS_PLANNED : RoundReport.LandingOutcome.ELSEWHERE;
                hold.release(node.name(), reservation.pod().uid());
                closed.put(reservation.pod().uid(), reservation.until());
                results.add(new RoundReport.LandingResult(reservation.pod(), node.name(), landed, result));
                String what = switch (result) {
                    case AS_PLANNED -> "landed on " + landed + " as planned";
                    case ELSEWHERE -> "landed on " + landed + ", not on " + node.name() + " as planned (the node did not"
                            + " take it when the scheduler placed it)";
                    case EXPIRED -> "did not bind before its landing on " + node.name() + " ran out";
                };
                log.info("rescheduler: the replacement of {} {}", reservation.pod(), what);
                if (replacement != null) {
                    hold.landed(replacement, "makeroom moved " + reservation.pod() + "; this replacement " + what);
                }
            }
        }
        return results;
    }


    /** Closes what is served or out of time between rounds, for the next round's report. */
    void closeBetweenRounds(ClusterSnapshot snapshot, Instant now) {
        closedSinceRound.addAll(close(snapshot, now));
    }

    /** The landings closed since the last round's report, taken for this one. */
    List<RoundReport.LandingResult> takeClosedSinceRound() {
        List<RoundReport.LandingResult> taken = new ArrayList<>(closedSinceRound);
        closedSinceRound.clear();
        return taken;
    }
}
