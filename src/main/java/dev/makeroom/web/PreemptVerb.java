package dev.makeroom.web;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.DecisionEvents;
import dev.makeroom.core.preemption.DecisionOutcome;
import dev.makeroom.core.preemption.GangLoss;
import dev.makeroom.core.preemption.GangRooms;
import dev.makeroom.core.preemption.HeldRooms;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionPipeline;
import dev.makeroom.core.preemption.PreemptionsInFlight;
import dev.makeroom.core.preemption.SchedulersChoice;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.WorkPrice;
import dev.makeroom.observability.DecisionLog;
import dev.makeroom.observability.ExtenderMetrics;
import dev.makeroom.queueconfig.Queues;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * The preempt verb's decision and what it does about it: asks the {@link PreemptionPipeline} (under the
 * pod's queue laws, now), then acts on the plan — remembers the victims in flight, holds a gang's rooms,
 * gives back a kept node, counts, logs and tells the pod. The warm-up asks the same pipeline and acts
 * on nothing.
 */
@Component
class PreemptVerb {

    private static final Logger log = LoggerFactory.getLogger(PreemptVerb.class);

    private final PreemptionPipeline pipeline;
    private final Queues queues;
    private final Clock clock;
    private final PreemptionsInFlight inFlight;
    private final GangRooms gangRooms;
    private final HeldRooms heldRooms;
    private final ExtenderMetrics metrics;
    private final DecisionLog decisions;
    private final DecisionEvents events;

    PreemptVerb(PreemptionPipeline pipeline, Queues queues, Clock clock, PreemptionsInFlight inFlight,
                GangRooms gangRooms, HeldRooms heldRooms, ExtenderMetrics metrics, DecisionLog decisions,
                DecisionEvents events) {
        this.pipeline = pipeline;
        this.queues = queues;
        this.clock = clock;
        this.inFlight = inFlight;
        this.gangRooms = gangRooms;
        this.heldRooms = heldRooms;
        this.metrics = metrics;
        this.decisions = decisions;
        this.events = events;
    }

    /** The plan, nothing acted on: the warm-up's call, decided as any other. */
    PreemptionPipeline.Plan plan(ClusterSnapshot snapshot, PodInfo pod, List<Candidate> candidates) {
        return pipeline.decide(new PreemptionPipeline.Request(snapshot, pod, candidates, queues.rulesFor(snapshot, pod),
                clock.instant()));
    }

    /** The decision the scheduler is answered, its plan carried out and recorded. */
    PreemptionDecision decide(ClusterSnapshot snapshot, PodInfo pod, List<Candidate> candidates) {
        PreemptionPipeline.Plan plan = plan(snapshot, pod, candidates);
        PreemptionDecision decision = plan.decision();
        Instant now = clock.instant();
        inFlight.record(pod, decision, now);
        if (!plan.holds().isEmpty()) { // victims for this member: the others' room is held for them
            gangRooms.hold(snapshot, plan.holds(), now);
        }
        plan.release().ifPresent(heldRooms::release);
        metrics.recordDecision(decision);
        decisions.add(now, decision);
        log.info("preempt {}: {} {} ({} candidate nodes, {} µs, {}{}{})", decision.pod(), decision.outcome(),
                decision.detail(), decision.verdicts().size(), decision.nanos() / 1000,
                decision.provenOptimal() ? "proven optimal" : "not proven optimal" + unproven(decision),
                decision.chosen().isEmpty() ? "" : ", " + decision.chosen().get(0).victims().objective(),
                decision.chosen().isEmpty() ? "" : ", " + workText(decision));
        if (decision.outcome() == DecisionOutcome.PREEMPT) {
            announce(snapshot, decision);
        }
        return decision;
    }

    private void announce(ClusterSnapshot snapshot, PreemptionDecision decision) {
        if (decision.schedulers() != null) {
            metrics.recordBeside(decision.schedulers(), decision.chosen().get(0), decision.workLost());
        }
        List<GangLoss> gangs = GangLoss.of(snapshot, decision.chosen().get(0).victims().victims());
        if (!gangs.isEmpty()) {
            metrics.recordGangLosses(gangs);
            log.info("preempt {}: breaks {}", decision.pod(), String.join("; ", gangs.stream().map(GangLoss::describe).toList()));
        }
        if (events.enabled()) {
            events.record(decision.pod(), eventMessage(decision, gangs));
        }
    }

    /** The preemptor's Event: where, whom, the gangs that restart, and beside the scheduler's own pick. */
    static String eventMessage(PreemptionDecision decision, List<GangLoss> gangs) {
        SchedulersChoice schedulers = decision.schedulers();
        NodeVerdict chosen = decision.chosen().get(0);
        List<PodInfo> victims = chosen.victims().victims();
        StringBuilder message = new StringBuilder("makeroom chose node ").append(chosen.node()).append(": evict ")
                .append(String.join(", ", victims.stream().map(p -> p.ref().toString()).toList()));
        for (GangLoss gang : gangs) {
            message.append("; ").append(gang.describe()).append(": the gang will restart");
        }
        if (schedulers != null) {
            message.append("; ").append(schedulers.beside(victims.size()));
        }
        return message.append("; ").append(workText(decision)).toString();
    }

    /** The answer's work lost, beside the scheduler's own pick's when there is one. */
    static String workText(PreemptionDecision decision) {
        return decision.schedulers() != null ? decision.schedulers().besideWork(decision.workLost())
                : WorkPrice.describe(decision.workLost());
    }

    /** What the answered node's search left open, when it ran out of time. */
    private static String unproven(PreemptionDecision decision) {
        if (decision.chosen().isEmpty() || decision.chosen().get(0).stats().gap() == null) {
            return "";
        }
        return " (" + decision.chosen().get(0).stats().gap().describe() + ")";
    }
}
