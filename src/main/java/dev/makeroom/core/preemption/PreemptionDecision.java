package dev.makeroom.core.preemption;

import dev.makeroom.core.model.PodRef;

import java.util.List;

/**
 * A whole preempt answer as a value: every candidate node's verdict (in the order asked), the
 * nodes answered in makeroom's order of preference, and why.
 */
public record PreemptionDecision(PodRef pod, DecisionOutcome outcome, String detail, Strategy strategy,
                                 List<NodeVerdict> verdicts, List<NodeVerdict> chosen, long nanos) {

    public PreemptionDecision {
        verdicts = List.copyOf(verdicts);
        chosen = List.copyOf(chosen);
    }

    public boolean provenOptimal() {
        return verdicts.stream().allMatch(NodeVerdict::provenOptimal);
    }
}
