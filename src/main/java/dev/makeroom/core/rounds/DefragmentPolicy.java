package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.Deadline;

import java.util.List;
import java.util.Optional;

/**
 * The defragment policy: a pod unschedulable for a while, which preemption does not place, gets a node
 * freed for it by moving the fewest pods of no higher priority off it, each to a node that takes them
 * all at once ({@link RoomByMoving}); the node is then held for it. The pods waiting longest come
 * first, highest priority first ({@link DefragmentCandidates}); each plan's moves are applied before the
 * next pod's search. It runs first: a pod that runs nowhere waits on it.
 */
final class DefragmentPolicy implements RoundPolicy {

    @Override
    public ReschedulePolicy kind() {
        return ReschedulePolicy.DEFRAGMENT;
    }

    @Override
    public boolean on(RescheduleSettings settings) {
        return settings.defragment().enabled();
    }

    @Override
    public void plan(Round round) {
        makeRoom(round, DefragmentCandidates.waiting(round.snapshot, round.settings.defragment(), round.now));
    }

    /** Room for each of {@code waiting}, in that order, however long it has waited. */
    static void makeRoom(Round round, List<PodInfo> waiting) {
        RescheduleSettings.Defragment settings = round.settings.defragment();
        RoomByMoving search = new RoomByMoving(round.planned, round.nodes, round.settings, round.limits, round.budgets,
                round.moved, round.heldBack, round::neverMoved, round.preemption.workPrice().at(round.now));
        PreemptionCheck preemptionOnce = round.preemption.oncePerShape();
        for (PodInfo pending : waiting) {
            Optional<Skip> leftAlone = DefragmentCandidates.leftAlone(round.snapshot, pending, preemptionOnce,
                    round.limits, round.now);
            if (leftAlone.isPresent()) {
                round.skip(leftAlone.get());
                continue;
            }
            RoomByMoving.Outcome outcome = search.find(pending,
                    Deadline.after(round.nanos, settings.searchBudget().toNanos()), round.now.plus(settings.reserveFor()));
            if (outcome instanceof RoomByMoving.Planned planned) {
                round.room(planned.plan());
            } else if (outcome instanceof RoomByMoving.Unplanned none) {
                round.skip(new Skip(pending.ref(), null, ReschedulePolicy.DEFRAGMENT, none.why().category(), none.text()));
            }
        }
    }
}
