package dev.makeroom.web;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.DecisionEvents;
import dev.makeroom.core.preemption.DecisionOutcome;
import dev.makeroom.core.preemption.GangLoss;
import dev.makeroom.core.preemption.GangRooms;
import dev.makeroom.core.preemption.GangStart;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionsInFlight;
import dev.makeroom.core.preemption.SchedulersChoice;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.observability.DecisionLog;
import dev.makeroom.observability.ExtenderMetrics;
import dev.makeroom.queueconfig.Queues;
import dev.makeroom.web.json.BadRequestException;
import dev.makeroom.web.json.PreemptArgsReader;
import dev.makeroom.web.json.PreemptionAnswer;
import dev.makeroom.web.json.WireDtos;
import dev.makeroom.web.json.WireJson;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The preempt verb. Thin: take one snapshot, read the wire body, ask the core, write the wire answer.
 * Each call reads exactly one snapshot from start to end. filter and prioritize, called for every pod
 * the scheduler places, are served by servlets of their own ({@link NodeVerbServlet}, {@link NodeVerbs}).
 */
@RestController
@RequestMapping("${makeroom.web.prefix:/scheduler}")
class ExtenderController {

    private static final Logger log = LoggerFactory.getLogger(ExtenderController.class);

    private final ClusterView view;
    private final WireJson json;
    private final PodTranslator pods;
    private final PreemptionEngine engine;
    private final ExtenderMetrics metrics;
    private final DecisionLog decisions;
    private final Queues queues;
    private final Clock clock;
    private final WarmupRequests warmups;
    private final DecisionEvents events;
    private final PreemptionsInFlight inFlight;
    private final GangRooms gangRooms;

    ExtenderController(ClusterView view, WireJson json, PodTranslator pods, PreemptionEngine engine,
                       ExtenderMetrics metrics, DecisionLog decisions, Queues queues, Clock clock,
                       WarmupRequests warmups, DecisionEvents events, PreemptionsInFlight inFlight, GangRooms gangRooms) {
        this.view = view;
        this.json = json;
        this.pods = pods;
        this.engine = engine;
        this.metrics = metrics;
        this.decisions = decisions;
        this.queues = queues;
        this.clock = clock;
        this.warmups = warmups;
        this.events = events;
        this.inFlight = inFlight;
        this.gangRooms = gangRooms;
    }

    @PostMapping(path = "/preempt", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<byte[]> preempt(InputStream body, HttpServletRequest request) {
        if (warmups.isWarmup(request)) { // makeroom's own warm-up: decided as any call, never counted nor logged
            ClusterSnapshot snapshot = view.snapshot();
            return ok(unrecordedPreemptAnswer(json.readPreemptArgs(body, snapshot.table()), snapshot));
        }
        boolean ready = view.ready();
        ClusterSnapshot snapshot = view.snapshot();
        // read as it arrives, never whole: see WireJson.readPreemptArgs
        PreemptArgsReader.PreemptArgs args = json.readPreemptArgs(body, snapshot.table());
        PodInfo pod = pods.toCore(args.pod(), snapshot);
        List<Candidate> candidates = candidates(args);
        if (!ready) {
            log.info("preempt {}: not deciding before the cluster view has synced", pod.ref());
            metrics.recordNotReady();
            return ok(new WireDtos.ExtenderPreemptionResult(Map.of()));
        }
        PreemptionDecision decision = decide(snapshot, pod, candidates);
        inFlight.record(pod, decision, clock.instant());
        metrics.recordDecision(decision);
        decisions.add(clock.instant(), decision);
        log.info("preempt {}: {} {} ({} candidate nodes, {} µs, {}{})", decision.pod(), decision.outcome(),
                decision.detail(), decision.verdicts().size(), decision.nanos() / 1000,
                decision.provenOptimal() ? "proven optimal" : "not proven optimal" + unproven(decision),
                decision.chosen().isEmpty() ? "" : ", " + decision.chosen().get(0).victims().objective());
        if (decision.outcome() == DecisionOutcome.PREEMPT) {
            if (decision.schedulers() != null) {
                metrics.recordBeside(decision.schedulers(), decision.chosen().get(0));
            }
            List<GangLoss> gangs = GangLoss.of(snapshot, decision.chosen().get(0).victims().victims());
            if (!gangs.isEmpty()) {
                metrics.recordGangLosses(gangs);
                log.info("preempt {}: breaks {}", decision.pod(),
                        String.join("; ", gangs.stream().map(GangLoss::describe).toList()));
            }
            if (events.enabled()) {
                events.record(decision.pod(), eventMessage(decision, gangs));
            }
        }
        return ok(preemptAnswer(decision));
    }

    /**
     * No second set of victims while the first is still terminating ({@link PreemptionsInFlight}): the
     * scheduler may ask again before they are gone (asynchronous preemption, Kubernetes 1.33 and later).
     */
    private PreemptionDecision decide(ClusterSnapshot snapshot, PodInfo pod, List<Candidate> candidates) {
        long start = System.nanoTime();
        PreemptionsInFlight.InFlight pending = inFlight.of(snapshot, pod, clock.instant());
        if (pending != null) {
            return PreemptionDecision.notEligible(pod.ref(), pending.describe(), engine.settings().strategy(),
                    System.nanoTime() - start);
        }
        QueueRules rules = queues.rulesFor(snapshot, pod);
        Instant now = clock.instant();
        GangStart.Checked checked = GangStart.check(engine, snapshot, pod, engine.decide(snapshot, pod, candidates, rules),
                rules, now);
        if (!checked.rooms().isEmpty()) { // victims for this member: the others' room is held for them
            gangRooms.hold(snapshot, checked.rooms(), now);
        }
        return checked.decision();
    }

    /**
     * A preempt body decided on {@code snapshot} without queue rules, logs or metrics, and answered
     * as the verb answers: the decision paths as the warm-up runs them ({@link DecisionPathWarmup}),
     * in-process or over HTTP.
     */
    byte[] unrecordedPreemptAnswer(byte[] body, ClusterSnapshot snapshot) {
        return unrecordedPreemptAnswer(json.readPreemptArgs(body, snapshot.table()), snapshot);
    }

    private byte[] unrecordedPreemptAnswer(PreemptArgsReader.PreemptArgs args, ClusterSnapshot snapshot) {
        PodInfo pod = pods.toCore(args.pod(), snapshot);
        return preemptAnswer(engine.decide(snapshot, pod, candidates(args), QueueRules.off()));
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
        return message.toString();
    }

    /** What the answered node's search left open, when it ran out of time. */
    private static String unproven(PreemptionDecision decision) {
        if (decision.chosen().isEmpty() || decision.chosen().get(0).stats().gap() == null) {
            return "";
        }
        return " (" + decision.chosen().get(0).stats().gap().describe() + ")";
    }

    private byte[] preemptAnswer(PreemptionDecision decision) {
        return json.write(new WireDtos.ExtenderPreemptionResult(PreemptionAnswer.toWire(decision)));
    }

    private static List<Candidate> candidates(PreemptArgsReader.PreemptArgs args) {
        if (args.candidates() == null) {
            throw new BadRequestException("neither NodeNameToVictims nor NodeNameToMetaVictims is given");
        }
        return args.candidates();
    }

    private ResponseEntity<byte[]> ok(Object body) {
        return ok(json.write(body));
    }

    private static ResponseEntity<byte[]> ok(byte[] body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }

}
