package dev.makeroom.core.preemption;

import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.Strategy;

import java.util.List;

/**
 * A whole preempt answer as a value: every candidate node's verdict (in the order asked), the
 * nodes answered in makeroom's order of preference, and why; beside it the scheduler's own pick
 * among the same candidates ({@code schedulers}; null when it named no victims makeroom sees, or
 * when the pod may not preempt at all). {@code workLost}: what the answer's victims lose, priced as
 * configured ({@link dev.makeroom.core.room.WorkPrice}, milli-units) under either objective; 0 when no one
 * is evicted.
 */
public record PreemptionDecision(PodRef pod, DecisionOutcome outcome, String detail, Strategy strategy,
                                 List<NodeVerdict> verdicts, List<NodeVerdict> chosen, long nanos,
                                 SchedulersChoice schedulers, long workLost) {

    public PreemptionDecision {
        verdicts = List.copyOf(verdicts);
        chosen = List.copyOf(chosen);
    }

    /** A decision with nothing to set beside the scheduler's pick. */
    public PreemptionDecision(PodRef pod, DecisionOutcome outcome, String detail, Strategy strategy,
                              List<NodeVerdict> verdicts, List<NodeVerdict> chosen, long nanos) {
        this(pod, outcome, detail, strategy, verdicts, chosen, nanos, null, 0);
    }

    /** A pod that may not preempt now, and why: no node was searched. */
    public static PreemptionDecision notEligible(PodRef pod, String why, Strategy strategy, long nanos) {
        return new PreemptionDecision(pod, DecisionOutcome.NOT_ELIGIBLE, why, strategy, List.of(), List.of(), nanos);
    }

    /** Room makeroom held idle is given back instead: no node was searched, no one is evicted. */
    public static PreemptionDecision released(PodRef pod, String why, Strategy strategy, long nanos) {
        return new PreemptionDecision(pod, DecisionOutcome.RELEASE, why, strategy, List.of(), List.of(), nanos);
    }

    public boolean provenOptimal() {
        return verdicts.stream().allMatch(NodeVerdict::provenOptimal);
    }
}
