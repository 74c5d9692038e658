package dev.makeroom.web;

import dev.makeroom.cluster.ClusterView;
import dev.makeroom.config.MakeroomProperties;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the three verbs' decision paths on the loaded snapshot before makeroom reports ready, so the
 * scheduler's first calls meet compiled code: preemptions are rare, and the first one used to take
 * ten times a warm one. The calls go through the controller's own reading, deciding and answering
 * code, for a synthetic pod that fits nowhere, without HTTP, logs, metrics or the decision log.
 * Readiness waits for it ({@code decisionPaths} in the readiness group) for {@code makeroom.web.warmup}.
 */
@Component
class DecisionPathWarmup {

    private static final Logger log = LoggerFactory.getLogger(DecisionPathWarmup.class);
    private static final int CANDIDATES = 500; // as many nodes as the scheduler offers at 5,000 nodes

    private final ClusterView view;
    private final ExtenderController verbs;
    private final WireJson json;
    private final Duration duration;
    private volatile boolean done;
    private volatile long rounds;

    DecisionPathWarmup(ClusterView view, ExtenderController verbs, WireJson json, MakeroomProperties properties) {
        this.view = view;
        this.verbs = verbs;
        this.json = json;
        this.duration = properties.web().warmup();
        this.done = duration.isZero();
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        if (!done) {
            Thread thread = new Thread(this::run, "makeroom-warmup");
            thread.setDaemon(true);
            thread.start();
        }
    }

    boolean done() {
        return done;
    }

    long rounds() {
        return rounds;
    }

    private void run() {
        try {
            while (!view.ready()) {
                LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a background thread waiting for the first sync
            }
            ClusterSnapshot snapshot = view.snapshot();
            byte[] nodes = nodesBody(snapshot);
            byte[] preempt = preemptBody(snapshot);
            long start = System.nanoTime();
            while (System.nanoTime() - start < duration.toNanos()) {
                verbs.filterAnswer(nodes, snapshot, true);
                verbs.prioritizeAnswer(nodes, snapshot, true);
                verbs.unrecordedPreemptAnswer(preempt, snapshot);
                rounds++;
            }
            log.info("decision paths warmed: {} rounds of filter, prioritize and preempt in {} ms", rounds,
                    (System.nanoTime() - start) / 1_000_000);
        } catch (RuntimeException e) {
            log.warn("warming the decision paths failed; reporting ready without it: {}", e.toString());
        } finally {
            done = true;
        }
    }

    /** A pod of the highest ordinary priority that needs more cpu than any node has free. */
    private static Map<String, Object> pod(ClusterSnapshot snapshot) {
        long cpu = snapshot.nodes().stream().mapToLong(n -> n.allocatable().get("cpu")).max().orElse(1000);
        return Map.of("metadata", Map.of("name", "makeroom-warmup", "namespace", "makeroom-warmup",
                        "uid", "makeroom-warmup"),
                "spec", Map.of("priority", 1_000_000_000, "containers", List.of(Map.of("name", "warmup",
                        "resources", Map.of("requests", Map.of("cpu", Math.max(1, cpu) + "m"))))));
    }

    private byte[] nodesBody(ClusterSnapshot snapshot) {
        List<String> names = snapshot.nodes().stream().map(NodeInfo::name).sorted().toList();
        return json.write(Map.of("Pod", pod(snapshot), "NodeNames", names));
    }

    /** The scheduler's shape: up to 500 nodes, each with two of its pods as the scheduler's victims. */
    private byte[] preemptBody(ClusterSnapshot snapshot) {
        Map<String, Object> candidates = new LinkedHashMap<>();
        for (NodeInfo node : snapshot.nodes()) {
            if (candidates.size() == CANDIDATES) {
                break;
            }
            if (!node.pods().isEmpty()) {
                List<Map<String, String>> victims = new ArrayList<>();
                for (PodInfo pod : node.pods().subList(0, Math.min(2, node.pods().size()))) {
                    victims.add(Map.of("UID", pod.uid()));
                }
                candidates.put(node.name(), Map.of("Pods", victims, "NumPDBViolations", 0));
            }
        }
        return json.write(Map.of("Pod", pod(snapshot), "NodeNameToMetaVictims", candidates));
    }
}
