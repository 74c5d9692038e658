package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.DecisionOutcome;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.reschedule.PreemptionCheck;
import dev.makeroom.queues.Queues;

import java.util.List;

/**
 * Asks makeroom's own preempt logic, with the pod's queue rules, over the nodes the scheduler would
 * offer it as candidates: those that admit it (cordon, taints) and that its node selector and required
 * affinity allow. Never logged or counted as a decision: it is a question, not an answer to the scheduler.
 */
public final class EnginePreemptionCheck implements PreemptionCheck {

    private final PreemptionEngine engine;
    private final Queues queues;

    public EnginePreemptionCheck(PreemptionEngine engine, Queues queues) {
        this.engine = engine;
        this.queues = queues;
    }

    @Override
    public boolean placesByPreemption(ClusterSnapshot snapshot, PodInfo pending) {
        List<String> candidates = snapshot.nodes().stream()
                .filter(n -> n.admission().admits(pending) && pending.constraints().allowsNode(n))
                .map(NodeInfo::name).sorted().toList();
        if (candidates.isEmpty()) {
            return false;
        }
        return engine.decide(snapshot, pending, Candidate.onNodes(candidates), queues.rulesFor(snapshot, pending))
                .outcome() == DecisionOutcome.PREEMPT;
    }
}
