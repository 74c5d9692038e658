package dev.makeroom.rescheduler;

import dev.makeroom.cluster.Leadership;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.NodeTaints;
import dev.makeroom.core.rounds.PastEviction;
import dev.makeroom.core.rounds.RefusalBackoff;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.RoomHold;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Carries a round's plan out, beside the loop that plans it ({@link Rescheduler}): in {@code evict}
 * mode, the drains' taints first, then each move in turn — its room reserved before the first of the
 * room's evictions, its landing held before its eviction, the eviction through the API — then the
 * rooms, drains and landings finished, and the own expired avoid-list entries cleared. A move the API
 * refused leaves its pod where it was, so a later move that counted on the room it would free is not
 * tried, and the pod is held back for a backoff that doubles per refusal ({@link RefusalBackoff}); a
 * node consolidation abandoned or could not start has a backoff of its own.
 *
 * <p>Keeps what carrying out needs across rounds: the evictions of the last hour (the limits), the
 * backoffs, the landings, each draining node's evictions. Not thread-safe: the rescheduler calls it
 * under its own lock.
 */
final class PlanCarrier {

    private static final Logger log = LoggerFactory.getLogger(Rescheduler.class); // the rescheduler's own lines, as before

    private final ReschedulerMode mode;
    private final Evictor evictor;
    private final RoomHold hold;
    private final NodeTaints taints;
    private final Leadership leadership;
    private final ActingGate gate;
    private final Landings landings;
    private final ReschedulerMetrics metrics;
    private final DrainEvictions drainEvictions = new DrainEvictions();
    private final List<PastEviction> history = new ArrayList<>();
    private final RefusalBackoff backoff = new RefusalBackoff();
    private final RefusalBackoff nodeBackoff = new RefusalBackoff(); // nodes consolidation abandoned or could not start

    PlanCarrier(ReschedulerMode mode, Evictor evictor, RoomHold hold, NodeTaints taints, Leadership leadership,
                ActingGate gate, ReschedulerMetrics metrics, Duration landingFor) {
        this.gate = gate;
        this.mode = mode;
        this.evictor = evictor;
        this.hold = hold;
        this.taints = taints;
        this.leadership = leadership;
        this.metrics = metrics;
        this.landings = new Landings(hold, landingFor);
    }

    /** The evictions of the hour before {@code now}, older ones forgotten: what the limits count. */
    List<PastEviction> lastHour(Instant now) {
        history.removeIf(past -> past.at().isBefore(now.minus(Duration.ofHours(1))));
        return history;
    }

    /** The pods the Eviction API refused lately, held back from the plans. */
    Set<String> heldBackPods() {
        return backoff.heldBack();
    }

    /** The nodes consolidation abandoned or could not start lately, held back from its plans. */
    Set<String> heldBackNodes() {
        return nodeBackoff.heldBack();
    }

    /** Closes the landings served or out of time since the last round (reported with the next round). */
    void closeLandingsBetweenRounds(ClusterSnapshot snapshot, Instant now) {
        if (!snapshot.nodesWithReservations().isEmpty()) {
            landings.closeBetweenRounds(snapshot, now);
        }
    }

    /** What carrying a plan out came to: each move's, room's, drain's and closed landing's result. */
    record Carried(List<RoundReport.MoveResult> moves, List<RoundReport.RoomResult> rooms,
                   List<RoundReport.DrainResult> drains, List<RoundReport.LandingResult> landings) {
    }

    /**
     * Carries {@code plan}, made on {@code snapshot} at {@code now}, out (in dry-run mode, reports it as
     * planned); a refusal holds its pod or node back for at most {@code backoffRounds} rounds.
     */
    Carried carryOut(ReschedulePlan plan, ClusterSnapshot snapshot, Instant now, int backoffRounds) {
        if (mode == ReschedulerMode.DRY_RUN) {
            List<RoundReport.MoveResult> moves = new ArrayList<>();
            for (Move move : plan.moves()) {
                moves.add(new RoundReport.MoveResult(move, RoundReport.MoveOutcome.PLANNED, null));
                log.info("rescheduler (dry run): would evict {} from {} ({}: {}); expected on {}", move.pod(),
                        move.from(), move.policy(), move.reason(), move.to());
            }
            afterRound(snapshot);
            return new Carried(moves, plannedRooms(plan), plannedDrains(plan), landings.takeClosedSinceRound());
        }
        OneRound round = new OneRound(plan, snapshot, now, backoffRounds);
        round.drains.begin();
        List<RoundReport.MoveResult> moves = new ArrayList<>();
        for (Move move : plan.moves()) {
            moves.add(round.carry(move));
        }
        List<RoundReport.RoomResult> rooms = round.rooms.finish();
        List<RoundReport.DrainResult> drains = drainEvictions.counted(round.drains.finish(), moves);
        for (String node : round.drains.heldBack(drains)) {
            nodeBackoff.refused(node, backoffRounds);
        }
        drains.stream().filter(d -> d.result() == RoundReport.DrainOutcome.EMPTIED)
                .forEach(d -> nodeBackoff.forget(d.drain().node()));
        afterRound(snapshot);
        snapshot.nodesWithAvoidances().values().stream().filter(n -> n.admission().hasExpiredOwn(now))
                .forEach(n -> evictor.expireAvoidances(n.name()));
        List<RoundReport.LandingResult> closed = landings.takeClosedSinceRound();
        landings.releaseEnded(snapshot, now);
        closed.addAll(landings.close(snapshot, now));
        return new Carried(moves, rooms, drains, closed);
    }

    /** The rooms of a plan that is not carried out, as planned. */
    static List<RoundReport.RoomResult> plannedRooms(ReschedulePlan plan) {
        return plan.rooms().stream().map(r -> new RoundReport.RoomResult(r, RoundReport.RoomOutcome.PLANNED, null)).toList();
    }

    /** The drains of a plan that is not carried out, as planned. */
    static List<RoundReport.DrainResult> plannedDrains(ReschedulePlan plan) {
        return plan.drains().stream().map(d -> new RoundReport.DrainResult(d, RoundReport.DrainOutcome.PLANNED, null)).toList();
    }

    /** The backoffs count a round; a pod or node gone from the cluster is forgotten. */
    private void afterRound(ClusterSnapshot snapshot) {
        Set<String> uids = new HashSet<>();
        snapshot.pods().forEach(p -> uids.add(p.uid()));
        backoff.roundDone(uids);
        nodeBackoff.roundDone(snapshot.nodes().stream().map(NodeInfo::name).collect(Collectors.toSet()));
        metrics.backoffs(backoff.size());
    }

    /** One plan being carried out: what its moves so far changed for the ones after them. */
    private final class OneRound {

        private final ReschedulePlan plan;
        private final ClusterSnapshot snapshot;
        private final Instant now;
        private final int backoffRounds;
        private final RoomsUnderway rooms;
        private final DrainsUnderway drains;
        // nodes a pod was planned to leave and did not: a later move that lands there counted on its room
        private final Map<String, String> stayed = new HashMap<>();
        // a gang moving whole: asked once, before its first eviction, whether the API would evict every member
        private final Map<String, Optional<String>> gangRefusals = new HashMap<>();

        OneRound(ReschedulePlan plan, ClusterSnapshot snapshot, Instant now, int backoffRounds) {
            this.plan = plan;
            this.snapshot = snapshot;
            this.now = now;
            this.backoffRounds = backoffRounds;
            this.rooms = new RoomsUnderway(plan.rooms(), hold, snapshot);
            this.drains = new DrainsUnderway(plan.drains(), taints, now);
        }

        /** Carries one move out, unless an earlier one, the lease, the gate, its gang, its room or its drain says not to. */
        RoundReport.MoveResult carry(Move move) {
            if (stayed.containsKey(move.to())) {
                return new RoundReport.MoveResult(move, RoundReport.MoveOutcome.NOT_TRIED, "it counted on "
                        + stayed.get(move.to()) + " leaving " + move.to() + ", which did not happen; planned again next round");
            }
            if (!leadership.leading()) {
                stayed.put(move.from(), move.pod().toString());
                return new RoundReport.MoveResult(move, RoundReport.MoveOutcome.NOT_LEADING, "the lease was lost during the round");
            }
            Optional<ActingGate.Shut> shut = gate.shut(); // the extender port stopped answering, or makeroom is stopping
            if (shut.isPresent()) {
                stayed.put(move.from(), move.pod().toString());
                return new RoundReport.MoveResult(move, RoundReport.MoveOutcome.NOT_TRIED, "stopped acting during the round: "
                        + shut.get().why());
            }
            PodInfo pod = snapshot.pod(move.pod().uid());
            Optional<String> gangRefused = pod == null || pod.gang() == null ? Optional.empty()
                    : gangRefusals.computeIfAbsent(pod.gang().key(), this::wouldRefuseAMember);
            if (gangRefused.isPresent()) {
                Evictor.EvictionOutcome refused = new Evictor.EvictionOutcome(
                        Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET,
                        "its gang moves whole, and the API would not evict " + gangRefused.get());
                stayed.put(move.from(), move.pod().toString());
                drains.evicted(move, refused); // a drain waiting on it is abandoned, as for a refusal
                return new RoundReport.MoveResult(move, RoundReport.MoveOutcome.NOT_TRIED, refused.detail());
            }
            Optional<NotReady> notReady = rooms.begin(move).or(() -> drains.blocks(move));
            if (notReady.isPresent()) {
                stayed.put(move.from(), move.pod().toString());
                return new RoundReport.MoveResult(move, RoundReport.MoveOutcome.NOT_TRIED, notReady.get().why());
            }
            return evict(move, pod);
        }

        private RoundReport.MoveResult evict(Move move, PodInfo pod) {
            boolean landing = landings.open(pod, move, now);
            Evictor.EvictionOutcome outcome = evictor.evict(pod, move);
            Evictor.EvictionOutcome.Result result = outcome.result();
            boolean gone = result == Evictor.EvictionOutcome.Result.EVICTED || result == Evictor.EvictionOutcome.Result.GONE;
            if (landing && result != Evictor.EvictionOutcome.Result.EVICTED) {
                hold.release(move.to(), pod.uid()); // nothing moved: nothing to come
            }
            String detail = result == Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET
                    ? outcome.detail() + ": " + budgetNames(pod) : outcome.detail();
            if (result == Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET || result == Evictor.EvictionOutcome.Result.FAILED) {
                stayed.put(move.from(), move.pod().toString());
            }
            rooms.done(move, gone);
            drains.evicted(move, outcome);
            if (result == Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET) {
                int rounds = backoff.refused(pod.uid(), backoffRounds);
                log.info("rescheduler: eviction of {} refused ({}); not tried again for {} round{}", pod.ref(), detail,
                        rounds, rounds == 1 ? "" : "s");
            } else if (gone) {
                backoff.forget(pod.uid());
            }
            if (result == Evictor.EvictionOutcome.Result.EVICTED) {
                history.add(new PastEviction(now, pod.namespace(), pod.controller().uid(), pod.labels()));
                log.info("rescheduler: evicted {} from {} ({}: {}); expected on {}", pod.ref(), move.from(),
                        move.policy(), move.reason(), move.to());
            }
            return new RoundReport.MoveResult(move, RoundReport.MoveOutcome.of(result), detail);
        }

        /**
         * The first member of gang {@code key} moved in the plan whose eviction the API would refuse now
         * (asked as a dry run), in words; empty when it would evict them all. Half a gang evicted stops it
         * whole, so its members go together or none does.
         */
        private Optional<String> wouldRefuseAMember(String key) {
            for (Move move : plan.moves()) {
                PodInfo member = snapshot.pod(move.pod().uid());
                if (member == null || member.gang() == null || !member.gang().key().equals(key)) {
                    continue;
                }
                Evictor.EvictionOutcome asked = evictor.wouldEvict(member);
                if (asked.result() == Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET
                        || asked.result() == Evictor.EvictionOutcome.Result.FAILED) {
                    return Optional.of(member.ref() + " (" + asked.detail() + ")");
                }
            }
            return Optional.empty();
        }

        private String budgetNames(PodInfo pod) {
            List<DisruptionBudget> budgets = snapshot.budgetsCovering(pod);
            return budgets.isEmpty() ? "none in makeroom's view"
                    : budgets.stream().map(b -> b.namespace() + "/" + b.name()).collect(Collectors.joining(", "));
        }
    }
}
