package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.placement.PlacementSurvey;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.queue.QueueOverMax;
import dev.makeroom.core.room.QueueRules;

import java.util.List;
import java.util.Optional;

/**
 * Where a pending pod could go now and, where it cannot, what preemption would decide over the nodes
 * the scheduler would offer it: the one question {@code /debug/simulate}, {@code --why} and the
 * rescheduler's defragmentation check ask. The placement engine surveys every node; the preemption
 * pipeline decides over the survey's preemption candidates, reusing the survey's pre-filters (so a pod
 * whose preemption is in flight, or for which held room is given back, reads as the extender answers). What
 * differs between the callers is written out as {@link Settings}, never defaulted.
 */
public final class PendingPodSurvey {

    /** When preemption is decided after the survey. */
    public enum Decide {
        /** Always, even when the pod fits somewhere or no node is a candidate (simulate shows both halves). */
        ALWAYS,
        /** When some node is a preemption candidate (the rescheduler asks whether preemption will place the pod). */
        WITH_CANDIDATES,
        /** When the pod fits nowhere and some node is a candidate, as the scheduler itself would (--why). */
        AS_THE_SCHEDULER_WOULD
    }

    /**
     * @param fence the queue, the pod's or an ancestor, it would take over its max: makeroom's filter
     *              then refuses it on every node the scheduler's own filters pass
     * @param rules the queue laws preemption keeps for this pod ({@link QueueRules#off()} without queues)
     * @param decide when preemption is decided
     */
    public record Settings(Optional<QueueOverMax> fence, QueueRules rules, Decide decide) {
    }

    /** The survey, and the decision: empty when the settings did not ask for one. */
    public record Answer(PlacementSurvey where, Optional<PreemptionDecision> decision) {

        public boolean placesByPreemption() {
            return decision.filter(d -> d.outcome() == DecisionOutcome.PREEMPT).isPresent();
        }
    }

    private PendingPodSurvey() {
    }

    public static Answer ask(PreemptionPipeline pipeline, SnapshotState state, ClusterSnapshot snapshot, PodInfo pod,
                             Settings settings) {
        PodPlacement placement = PodPlacement.of(state, pod, settings.fence());
        PlacementSurvey where = PlacementSurvey.of(placement);
        List<String> candidates = where.preemptionCandidates();
        boolean decide = switch (settings.decide()) {
            case ALWAYS -> true;
            case WITH_CANDIDATES -> !candidates.isEmpty();
            case AS_THE_SCHEDULER_WOULD -> where.fits().isEmpty() && !candidates.isEmpty();
        };
        Optional<PreemptionDecision> decision = decide
                ? Optional.of(pipeline.decide(new PreemptionPipeline.Request(snapshot, pod, Candidate.onNodes(candidates),
                        settings.rules(), state.now()), placement).decision())
                : Optional.empty();
        return new Answer(where, decision);
    }
}
