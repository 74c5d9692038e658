package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.PlacementSurvey;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.DecisionOutcome;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.reschedule.PreemptionCheck;
import dev.makeroom.queues.Queues;

import java.time.Clock;
import java.util.List;

/**
 * Asks makeroom's own preempt logic, with the pod's queue rules, over the nodes the scheduler would
 * offer it as candidates: those where the placement engine says evicting pods could help. Never logged
 * or counted as a decision: it is a question, not an answer to the scheduler.
 */
public final class EnginePreemptionCheck implements PreemptionCheck {

    private final PreemptionEngine engine;
    private final Queues queues;
    private final Clock clock;

    public EnginePreemptionCheck(PreemptionEngine engine, Queues queues, Clock clock) {
        this.engine = engine;
        this.queues = queues;
        this.clock = clock;
    }

    @Override
    public boolean placesByPreemption(ClusterSnapshot snapshot, PodInfo pending) {
        PodPlacement placement = PodPlacement.of(new SnapshotState(snapshot, clock.instant()), pending);
        List<String> candidates = PlacementSurvey.of(placement).preemptionCandidates();
        if (candidates.isEmpty()) {
            return false;
        }
        return engine.decide(snapshot, pending, Candidate.onNodes(candidates), queues.rulesFor(snapshot, pending),
                placement).outcome() == DecisionOutcome.PREEMPT;
    }
}
