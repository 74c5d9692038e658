package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.QueueRules;

import java.util.List;

/** The engine as the tests ask it: over bare node names or the scheduler's candidates, queues off unless given. */
public record Decider(PreemptionEngine engine) {

    public PreemptionDecision decide(ClusterSnapshot snapshot, PodInfo pending, List<String> nodes) {
        return decide(snapshot, pending, nodes, QueueRules.off());
    }

    public PreemptionDecision decide(ClusterSnapshot snapshot, PodInfo pending, List<String> nodes, QueueRules rules) {
        return engine.decide(snapshot, pending, Candidate.onNodes(nodes), rules);
    }

    PreemptionDecision decideFor(ClusterSnapshot snapshot, PodInfo pending, List<Candidate> candidates) {
        return engine.decide(snapshot, pending, candidates, QueueRules.off());
    }
}
