package dev.makeroom.web;

import dev.makeroom.config.MakeroomProperties;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.web.json.WireJson;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the three verbs on the loaded snapshot before makeroom reports ready, so the scheduler's first
 * calls meet compiled code: preemptions are rare, and the first one used to take ten times a warm one.
 * The calls go over HTTP to makeroom's own extender port (Tomcat, Spring's dispatch and the wire
 * code warm too), marked by {@link WarmupRequests} so they leave no metrics, logs or decisions, with
 * synthetic pods of both kinds the scheduler sends (one in the API server's full shape at the top
 * priority, one plain at an ordinary priority), each fitting nowhere and anywhere, and a preemptor
 * that can make room on every candidate node beside one that can on some: each shape takes branches
 * the others do not, and code compiled without them is thrown away at the first real call that
 * takes one (seen in the JIT's log as the first calls' deoptimizations; docs/benchmarks.md). Where the port speaks TLS (or
 * the call fails) they go through the controller's code in-process instead. Readiness waits for it ({@code decisionPaths} in the
 * readiness group) for {@code makeroom.web.warmup}.
 */
@Component
class DecisionPathWarmup {

    private static final Logger log = LoggerFactory.getLogger(DecisionPathWarmup.class);
    private static final int CANDIDATES = 500; // as many nodes as the scheduler offers at 5,000 nodes
    private static final String POD = template("warmup-pod.json");
    private static final String PLAIN_POD = template("warmup-plain-pod.json");

    private final ClusterView view;
    private final ExtenderController verbs;
    private final NodeVerbs nodeVerbs;
    private final WireJson json;
    private final Duration duration;
    private final WarmupRequests warmups;
    private final String prefix;
    private final ExtenderPort port;
    private final ApplicationEventPublisher events; // DecisionPathsWarmed, for a training run's end
    private volatile boolean done;
    private volatile long rounds;
    private volatile boolean overHttp;

    DecisionPathWarmup(ClusterView view, ExtenderController verbs, NodeVerbs nodeVerbs, WireJson json,
                       MakeroomProperties properties, WarmupRequests warmups, ExtenderPort port,
                       ApplicationEventPublisher events) {
        this.events = events;
        this.view = view;
        this.verbs = verbs;
        this.nodeVerbs = nodeVerbs;
        this.json = json;
        this.duration = properties.web().warmup();
        this.warmups = warmups;
        this.prefix = properties.web().prefix();
        this.port = port;
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

    /** Whether the warm-up went over HTTP (false: in-process). */
    boolean overHttp() {
        return overHttp;
    }

    private void run() {
        String failure = null;
        try {
            while (!view.ready()) {
                LockSupport.parkNanos(Duration.ofMillis(100).toNanos()); // a background thread waiting for the first sync
            }
            ClusterSnapshot snapshot = view.snapshot();
            // both answers' shapes (a pod that fits nowhere, every node failed, and one that fits anywhere),
            // each for both kinds of pod; a preemptor that can make room anywhere and one that can on some nodes
            long most = Math.max(1, snapshot.nodes().stream().mapToLong(n -> n.allocatable().get("cpu")).max().orElse(1000));
            List<String> names = snapshot.nodes().stream().map(NodeInfo::name).sorted().toList();
            List<String> shuffled = new ArrayList<>(names);
            Collections.shuffle(shuffled, new Random(names.size()));
            Ordinary ordinary = Ordinary.of(snapshot);
            List<byte[]> nodes = List.of(nodesBody(names, pod(most)), nodesBody(names, pod(1)),
                    nodesBody(shuffled, plainPod(ordinary, most, 0)), nodesBody(shuffled, plainPod(ordinary, 1, 0)));
            List<byte[]> preempts = List.of(preemptBody(snapshot, pod(most)),
                    preemptBody(snapshot, plainPod(ordinary, Math.max(1, most / 4), 1)));
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            overHttp = !port.tls() && port.listening() && overHttp(nodes, preempts, end);
            while (System.nanoTime() < end) {
                for (byte[] body : nodes) {
                    nodeVerbs.filterAnswer(body, snapshot, true);
                    nodeVerbs.prioritizeAnswer(body, snapshot, true);
                }
                for (byte[] body : preempts) {
                    verbs.unrecordedPreemptAnswer(body, snapshot);
                }
                rounds++;
            }
            log.info("decision paths warmed: {} rounds of filter, prioritize and preempt {} in {} ms", rounds,
                    overHttp ? "over HTTP" : "in-process", (System.nanoTime() - start) / 1_000_000);
            // the first sync and the warm-up leave a heap full of garbage; collected now, before readiness,
            // the collector's work does not fall on the scheduler's first calls (-XX:+DisableExplicitGC skips it)
            System.gc();
        } catch (RuntimeException e) {
            failure = e.toString();
            log.warn("warming the decision paths failed; reporting ready without it: {}", failure);
        } finally {
            done = true;
            events.publishEvent(new DecisionPathsWarmed(rounds, overHttp, failure));
        }
    }

    private static String template(String file) {
        InputStream in = DecisionPathWarmup.class.getResourceAsStream(file);
        if (in == null) {
            throw new IllegalStateException("the warm-up's pod (" + file + ") is missing from the jar");
        }
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Calls the verbs over HTTP until {@code end}, on one keep-alive connection as the scheduler does; false if a call failed. */
    private boolean overHttp(List<byte[]> nodes, List<byte[]> preempts, long end) {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2)).build();
        String base = "http://127.0.0.1:" + port.number() + prefix + "/";
        try {
            while (System.nanoTime() < end) {
                for (byte[] body : nodes) {
                    call(client, base + "filter", body);
                    call(client, base + "prioritize", body);
                }
                for (byte[] body : preempts) {
                    call(client, base + "preempt", body);
                }
                rounds++;
            }
            return true;
        } catch (IOException | RuntimeException e) {
            log.info("warming over HTTP failed ({}); warming in-process instead", e.toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void call(HttpClient client, String url, byte[] body) throws IOException, InterruptedException {
        HttpResponse<Void> response = client.send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .header(WarmupRequests.HEADER, warmups.token())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() != 200) {
            throw new IOException(url + " answered " + response.statusCode());
        }
    }

    /**
     * A pod of the highest ordinary priority asking for {@code cpu} millicores, in the shape the API
     * server gives the scheduler (owner, managed fields, probes, env, volumes, tolerations, status):
     * reading every part of it is part of what must be warm.
     */
    private Object pod(long cpu) {
        return json.read(POD.replace("__CPU__", Long.toString(cpu)).getBytes(StandardCharsets.UTF_8), Map.class);
    }

    /**
     * The other kind: a pod with nothing but a container's requests (no owner, labels, annotations or
     * limits), in a namespace of the cluster, of the median priority of its running pods plus
     * {@code above} (1: it may preempt about half of them, so some nodes can make room and some not). Code
     * compiled for the first kind alone is thrown away at the first pod of this one (the JIT's
     * guesses about which branches and types occur no longer hold).
     */
    private Object plainPod(Ordinary ordinary, long cpu, int above) {
        return json.read(PLAIN_POD.replace("__NAMESPACE__", ordinary.namespace())
                .replace("__PRIORITY__", Integer.toString(ordinary.priority() + above))
                .replace("__CPU__", Long.toString(cpu)).getBytes(StandardCharsets.UTF_8), Map.class);
    }

    /** Where and at what priority the cluster's pods run: a namespace of one, the median priority. */
    private record Ordinary(String namespace, int priority) {
        static Ordinary of(ClusterSnapshot snapshot) {
            List<PodInfo> running = snapshot.nodes().stream().flatMap(node -> node.pods().stream()).toList();
            if (running.isEmpty()) {
                return new Ordinary("default", 0);
            }
            int[] priorities = running.stream().mapToInt(PodInfo::priority).sorted().toArray();
            return new Ordinary(running.get(0).ref().namespace(), priorities[priorities.length / 2]);
        }
    }

    private byte[] nodesBody(List<String> names, Object pod) {
        return json.write(Map.of("Pod", pod, "NodeNames", names));
    }

    /** The scheduler's shape: up to 500 nodes, each with two of its pods as the scheduler's victims. */
    private byte[] preemptBody(ClusterSnapshot snapshot, Object preemptor) {
        Map<String, Object> candidates = new LinkedHashMap<>();
        for (NodeInfo node : snapshot.nodes()) {
            if (candidates.size() == CANDIDATES) {
                break;
            }
            if (!node.pods().isEmpty()) {
                List<Map<String, String>> victims = new ArrayList<>();
                for (PodInfo victim : node.pods().subList(0, Math.min(2, node.pods().size()))) {
                    victims.add(Map.of("UID", victim.uid()));
                }
                candidates.put(node.name(), Map.of("Pods", victims, "NumPDBViolations", 0));
            }
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("Pod", preemptor);
        body.put("NodeNameToVictims", null); // as the scheduler writes it: both fields, one null
        body.put("NodeNameToMetaVictims", candidates);
        return json.write(body);
    }
}
