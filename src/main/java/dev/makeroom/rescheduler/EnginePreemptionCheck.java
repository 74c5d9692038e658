package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.preemption.PendingPodSurvey;
import dev.makeroom.core.preemption.PreemptionPipeline;
import dev.makeroom.core.room.WorkPrice;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.queueconfig.Queues;

import java.time.Clock;
import java.util.Optional;

/**
 * Asks makeroom's own preempt logic, with the pod's queue rules, over the nodes the scheduler would
 * offer it as candidates: those where the placement engine says evicting pods could help. Never logged
 * or counted as a decision: it is a question, not an answer to the scheduler.
 */
public final class EnginePreemptionCheck implements PreemptionCheck {

    private final PreemptionPipeline pipeline;
    private final Queues queues;
    private final Clock clock;

    public EnginePreemptionCheck(PreemptionPipeline pipeline, Queues queues, Clock clock) {
        this.pipeline = pipeline;
        this.queues = queues;
        this.clock = clock;
    }

    @Override
    public WorkPrice workPrice() {
        return pipeline.engine().settings().price();
    }

    @Override
    public boolean placesByPreemption(ClusterSnapshot snapshot, PodInfo pending) {
        // no queue fence: the question is whether preemption would place the pod, were it admitted
        return PendingPodSurvey.ask(pipeline, new SnapshotState(snapshot, clock.instant()), snapshot, pending,
                new PendingPodSurvey.Settings(Optional.empty(), queues.rulesFor(snapshot, pending),
                        PendingPodSurvey.Decide.WITH_CANDIDATES)).placesByPreemption();
    }
}
