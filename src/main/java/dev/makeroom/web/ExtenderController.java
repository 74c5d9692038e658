package dev.makeroom.web;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.observability.ExtenderMetrics;
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
import java.util.List;
import java.util.Map;

/**
 * The preempt verb. Thin: take one snapshot, read the wire body, ask {@link PreemptVerb} (the pipeline
 * every preemption goes through), write the wire answer. Each call reads exactly one snapshot from start
 * to end. filter and prioritize, called for every pod the scheduler places, are answered before Spring
 * ({@link NodeVerbValve}, {@link NodeVerbs}).
 */
@RestController
@RequestMapping("${makeroom.web.prefix:/scheduler}")
class ExtenderController {

    private static final Logger log = LoggerFactory.getLogger(ExtenderController.class);

    private final ClusterView view;
    private final WireJson json;
    private final PodTranslator pods;
    private final PreemptVerb preemptions;
    private final ExtenderMetrics metrics;
    private final WarmupRequests warmups;

    ExtenderController(ClusterView view, WireJson json, PodTranslator pods, PreemptVerb preemptions,
                       ExtenderMetrics metrics, WarmupRequests warmups) {
        this.view = view;
        this.json = json;
        this.pods = pods;
        this.preemptions = preemptions;
        this.metrics = metrics;
        this.warmups = warmups;
    }

    @PostMapping(path = "/preempt", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<byte[]> preempt(InputStream body, HttpServletRequest request) {
        if (warmups.isWarmup(request)) { // makeroom's own warm-up: decided as any call, never acted on, counted nor logged
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
            return ok(json.write(new WireDtos.ExtenderPreemptionResult(Map.of())));
        }
        return ok(preemptAnswer(preemptions.decide(snapshot, pod, candidates)));
    }

    /**
     * A preempt body decided on {@code snapshot} as the verb decides it, nothing acted on, counted or
     * logged, and answered as the verb answers: the decision paths as the warm-up runs them
     * ({@link DecisionPathWarmup}), in-process or over HTTP.
     */
    byte[] unrecordedPreemptAnswer(byte[] body, ClusterSnapshot snapshot) {
        return unrecordedPreemptAnswer(json.readPreemptArgs(body, snapshot.table()), snapshot);
    }

    private byte[] unrecordedPreemptAnswer(PreemptArgsReader.PreemptArgs args, ClusterSnapshot snapshot) {
        PodInfo pod = pods.toCore(args.pod(), snapshot);
        return preemptAnswer(preemptions.plan(snapshot, pod, candidates(args)).decision());
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

    private static ResponseEntity<byte[]> ok(byte[] body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }
}
