package dev.makeroom.debug;

import dev.makeroom.core.devices.Device;
import dev.makeroom.core.devices.DeviceClaim;
import dev.makeroom.core.devices.DevicePool;
import dev.makeroom.core.devices.DeviceState;
import dev.makeroom.core.devices.DeviceVersion;
import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.cluster.ReplicaName;
import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.placement.PlacementSurvey;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.preemption.GangLoss;
import dev.makeroom.core.preemption.PendingPodSurvey;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionPipeline;
import dev.makeroom.core.queue.Queue;
import dev.makeroom.core.queue.QueueUsage;
import dev.makeroom.core.room.Eligibility;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.Objective;
import dev.makeroom.core.room.TieBreak;
import dev.makeroom.core.room.WorkPrice;
import dev.makeroom.core.room.WorkRank;
import dev.makeroom.mapping.PodMapper;
import dev.makeroom.mapping.UnreadableQuantity;
import dev.makeroom.observability.DecisionLog;
import dev.makeroom.queueconfig.Queues;
import dev.makeroom.why.WhyExplanation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Explains makeroom on the management port: recent preemption decisions with every node's outcome
 * and reasons (read from the decision values, never recomputed), and the cluster view per node.
 */
final class DebugHandlers {

    private final ClusterView view;
    private final DecisionLog decisions;
    private final PreemptionPipeline pipeline;
    private final Queues queues;
    private final Clock clock;
    private final KubernetesSerialization serialization = new KubernetesSerialization();

    DebugHandlers(ClusterView view, DecisionLog decisions, PreemptionPipeline pipeline,
                  Queues queues, Clock clock) {
        this.view = view;
        this.decisions = decisions;
        this.pipeline = pipeline;
        this.queues = queues;
        this.clock = clock;
    }

    /**
     * POST /debug/simulate — body: a Pod (YAML or JSON), or {"pod": "namespace/name"} for a pod in
     * the view. Answers where the scheduler could place it now (every filter, over every node) and what
     * preempt would decide over the nodes the scheduler would offer it; changes nothing.
     */
    ServerResponse simulate(ServerRequest request) throws Exception {
        ClusterSnapshot snapshot = view.snapshot();
        PodInfo pod;
        try {
            pod = podToSimulate(request.body(String.class), snapshot);
        } catch (IllegalArgumentException e) {
            return error(HttpStatus.BAD_REQUEST, e.getMessage());
        }
        if (pod == null) {
            return error(HttpStatus.NOT_FOUND, "no such pod in the view");
        }
        QueueUsage usage = queues.usage(snapshot);
        PendingPodSurvey.Answer answer = PendingPodSurvey.ask(pipeline, new SnapshotState(snapshot, clock.instant()),
                snapshot, pod, asTheSchedulerMeetsIt(snapshot, pod, usage, PendingPodSurvey.Decide.ALWAYS));
        PlacementSurvey where = answer.where();
        PreemptionDecision decision = answer.decision().orElseThrow(); // asked ALWAYS
        List<String> gangsBroken = decision.chosen().isEmpty() ? List.of()
                : GangLoss.of(snapshot, decision.chosen().get(0).victims().victims()).stream().map(GangLoss::describe).toList();
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(new DebugDtos.Simulation(
                pod.ref().toString(), pod.priority(), queueOf(pod, snapshot, usage), snapshot.version().toString(),
                where.fits(), where.unschedulable(),
                where.unresolvable(), where.unknown(), decision(clock.instant().toString(), decision), gangsBroken));
    }

    /** Makeroom's queue fence and the pod's queue laws, as the scheduler meets them. */
    private PendingPodSurvey.Settings asTheSchedulerMeetsIt(ClusterSnapshot snapshot, PodInfo pod, QueueUsage usage,
                                                            PendingPodSurvey.Decide decide) {
        return new PendingPodSurvey.Settings(FilterPolicy.overQueueMax(snapshot, pod, usage),
                queues.rulesFor(snapshot, pod), decide);
    }

    /** Why a pod asked for by name is not found; a name without its namespace says how to ask, and where it is. */
    static String notInView(ClusterSnapshot snapshot, String ref) {
        if (ref.contains("/")) {
            return "no pod " + ref + " in the view";
        }
        List<String> named = snapshot.pods().stream().filter(p -> p.name().equals(ref)).map(p -> p.ref().toString())
                .sorted().toList();
        return "no pod " + ref + " in the view: name it as namespace/name" + (named.isEmpty() ? ""
                : " (pods named " + ref + ": " + String.join(", ", named) + ")");
    }

    /**
     * GET /debug/why?pod=namespace/name, or POST /debug/why with a Pod or {"pod": …} as simulate takes:
     * {@code --why}'s explanation in words, on the live view with makeroom's own settings and queues.
     */
    ServerResponse why(ServerRequest request) throws Exception {
        ClusterSnapshot snapshot = view.snapshot();
        PodInfo pod;
        try {
            if (request.method().name().equals("GET")) {
                String ref = request.param("pod").filter(p -> !p.isBlank()).orElseThrow(() -> new IllegalArgumentException(
                        "name the pod: ?pod=namespace/name (or POST a Pod)"));
                pod = snapshot.podNamed(ref);
            } else {
                pod = podToSimulate(request.body(String.class), snapshot);
            }
        } catch (IllegalArgumentException e) {
            return error(HttpStatus.BAD_REQUEST, e.getMessage());
        }
        if (pod == null) {
            return error(HttpStatus.NOT_FOUND, notInView(snapshot, request.param("pod").orElse("")));
        }
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            WhyExplanation.write(pipeline, new SnapshotState(snapshot, clock.instant()), snapshot, pod,
                    asTheSchedulerMeetsIt(snapshot, pod, queues.usage(snapshot),
                            PendingPodSurvey.Decide.AS_THE_SCHEDULER_WOULD), out);
        }
        return ServerResponse.ok().contentType(new MediaType("text", "plain", StandardCharsets.UTF_8))
                .body(text.toString(StandardCharsets.UTF_8));
    }

    private PodInfo podToSimulate(String body, ClusterSnapshot snapshot) {
        if (body == null || body.isBlank()) {
            throw new IllegalArgumentException("send a Pod (YAML or JSON) or {\"pod\": \"namespace/name\"}");
        }
        Map<?, ?> document;
        try {
            document = serialization.unmarshal(body, Map.class); // YAML or JSON
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the body is neither YAML nor JSON: " + e.getMessage());
        }
        if (document != null && document.get("pod") instanceof String ref && document.size() == 1) {
            return snapshot.podNamed(ref);
        }
        if (document == null || !"Pod".equals(document.get("kind"))) {
            throw new IllegalArgumentException("send a Pod (kind: Pod) or {\"pod\": \"namespace/name\"}");
        }
        Pod pod;
        try {
            pod = serialization.convertValue(document, Pod.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the Pod cannot be read: " + e.getMessage());
        }
        try {
            return PodMapper.toCore(pod, snapshot::priorityValue);
        } catch (ArithmeticException | IllegalArgumentException e) {
            throw new IllegalArgumentException(UnreadableQuantity.in(pod, "Pod")
                    .orElseGet(() -> "the Pod cannot be read: " + e.getMessage()));
        }
    }

    /** Which replica's decisions an answer holds: its pod name in a cluster (HOSTNAME), else its host. */
    static final String DECIDED_BY = "Makeroom-Decisions-Of";

    private static ServerResponse error(HttpStatus status, String message) {
        return ServerResponse.status(status).contentType(MediaType.APPLICATION_JSON).body(new DebugDtos.Error(message));
    }

    /**
     * GET /debug/decisions[?pod=namespace/name] — the recent decisions of this replica, newest first;
     * the header {@code Makeroom-Decisions-Of} names the replica (the others keep their own).
     */
    ServerResponse decisions(ServerRequest request) {
        String pod = request.param("pod").orElse(null);
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).header(DECIDED_BY, ReplicaName.get())
                .body(decisions.newestFirst(ref -> pod == null || ref.toString().equals(pod)).stream()
                .map(e -> decision(e.at().toString(), e.decision())).toList());
    }

    /** GET /debug/nodes — every node's capacity, use and pods by priority. */
    ServerResponse nodes(ServerRequest request) {
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(view.snapshot().nodes().stream()
                .sorted(Comparator.comparing(NodeInfo::name)).map(DebugHandlers::summary).toList());
    }

    /** GET /debug/pending — the pods waiting to be scheduled, highest priority first. */
    ServerResponse pending(ServerRequest request) {
        ClusterSnapshot snapshot = view.snapshot();
        QueueUsage usage = queues.usage(snapshot);
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(snapshot.pods().stream()
                .filter(p -> !p.isAssigned())
                .sorted(Comparator.comparingInt(PodInfo::priority).reversed().thenComparing(p -> p.ref().toString()))
                .map(p -> new DebugDtos.PendingPod(p.ref().toString(), p.priority(), p.requests().toMap(),
                        queueOf(p, snapshot, usage), p.nominatedNodeName()))
                .toList());
    }

    /** GET /debug/nodes/{name} — one node's pods and what shields each from preemption, and its devices with who holds each. */
    ServerResponse node(ServerRequest request) {
        String name = request.pathVariable("name");
        ClusterSnapshot snapshot = view.snapshot();
        NodeInfo node = snapshot.node(name);
        if (node == null) {
            return error(HttpStatus.NOT_FOUND, "no node " + name + " in the view");
        }
        QueueUsage usage = queues.usage(snapshot);
        List<DebugDtos.PodDetail> pods = node.pods().stream()
                .sorted(Comparator.comparingInt(PodInfo::priority).reversed().thenComparing(PodInfo::name))
                .map(p -> new DebugDtos.PodDetail(p.ref().toString(), p.priority(), p.priorityClassName(),
                        p.qos().name(), p.requests().toMap(), p.terminating(), queueOf(p, snapshot, usage),
                        Eligibility.explainStanding(p, snapshot)))
                .toList();
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(new DebugDtos.NodeDetail(summary(node), pods,
                devices(node, snapshot)));
    }

    /** The devices that can serve the node's pods, in the allocator's order, and who holds each. */
    private static List<DebugDtos.DeviceDetail> devices(NodeInfo node, ClusterSnapshot snapshot) {
        DeviceState devices = snapshot.devices();
        List<DebugDtos.DeviceDetail> out = new ArrayList<>();
        for (DevicePool pool : devices.poolsOn(node.name(), node.labels())) {
            for (Device device : pool.devices()) {
                String key = pool.key() + "/" + device.name();
                List<DeviceClaim> holders = devices.holders().getOrDefault(key, List.of());
                Map<String, String> attributes = new TreeMap<>();
                device.attributes().forEach((name, value) -> attributes.put(name, String.valueOf(value.celValue() instanceof
                        DeviceVersion v ? v.text() : value.celValue())));
                List<String> pods = holders.stream().flatMap(c -> c.reservedFor().stream())
                        .map(uid -> snapshot.pod(uid) == null ? uid : snapshot.pod(uid).ref().toString()).sorted().toList();
                out.add(new DebugDtos.DeviceDetail(key, attributes, holders.stream().map(DeviceClaim::ref).sorted().toList(), pods));
            }
        }
        return out;
    }

    /** The pod's leaf queue, or null without queues or when it maps to none. */
    private static String queueOf(PodInfo pod, ClusterSnapshot snapshot, QueueUsage usage) {
        Queue leaf = usage == null ? null : usage.tree().leafOf(pod, snapshot.namespaceAnnotations());
        return leaf == null ? null : leaf.fullName();
    }

    private static DebugDtos.NodeSummary summary(NodeInfo node) {
        Map<String, Long> free = new TreeMap<>();
        node.allocatable().toMap().forEach((resource, amount) -> free.put(resource, amount - node.requested().get(resource)));
        Map<String, Integer> byPriority = new TreeMap<>();
        Map<String, Map<String, Long>> requestedByPriority = new TreeMap<>();
        for (PodInfo pod : node.pods()) {
            byPriority.merge(String.valueOf(pod.priority()), 1, Integer::sum);
            Map<String, Long> band = requestedByPriority.computeIfAbsent(String.valueOf(pod.priority()), p -> new TreeMap<>());
            pod.requests().toMap().forEach((resource, amount) -> band.merge(resource, amount, Long::sum));
            band.merge(Resources.PODS, 1L, Long::sum);
        }
        NodeAdmission admission = node.admission();
        return new DebugDtos.NodeSummary(node.name(), new TreeMap<>(node.labels()), admission.unschedulable(),
                admission.taints().stream().map(DebugHandlers::spelled).toList(),
                ConsolidationMark.isMarked(node),
                node.allocatable().toMap(), node.requested().toMap(), free, byPriority, requestedByPriority,
                node.nominatedPods().stream().map(DebugHandlers::ref).toList());
    }

    /** A taint as kubectl prints it: {@code key=value:Effect}, or {@code key:Effect}. */
    private static String spelled(Taint taint) {
        return taint.key() + (taint.value() == null || taint.value().isEmpty() ? "" : "=" + taint.value()) + ":"
                + taint.effect();
    }

    private static DebugDtos.PodRef ref(PodInfo pod) {
        return new DebugDtos.PodRef(pod.ref().toString(), pod.priority());
    }

    private static DebugDtos.Decision decision(String at, PreemptionDecision d) {
        return new DebugDtos.Decision(at, d.pod().toString(), d.outcome().name(), d.detail(),
                DebugDtos.spelled(d.strategy()), d.provenOptimal(), d.nanos() / 1000,
                d.chosen().stream().map(NodeVerdict::node).toList(), WorkPrice.hours(d.workLost()),
                d.schedulers() == null ? null : new DebugDtos.SchedulersPick(d.schedulers().node(), d.schedulers().victims(),
                        d.schedulers().prioritySum(), WorkPrice.hours(d.schedulers().workLost())),
                d.verdicts().stream().map(DebugHandlers::outcome).toList());
    }

    /** The objective's components by name, tie-breaks included, in the order they are compared. */
    private static Map<String, Long> objective(Objective o) {
        Map<String, Long> components = new LinkedHashMap<>();
        components.put("pdbViolations", o.pdbViolations());
        components.put("highestPriority", o.highestPriority());
        boolean workFirst = o.workRank() == WorkRank.BEFORE_COUNT; // milli-units, where the objective compares them
        if (workFirst) {
            components.put("workLost", o.workLost());
        }
        components.put("victims", o.victims());
        components.put("prioritySum", o.prioritySum());
        if (!workFirst) {
            components.put("workLost", o.workLost());
        }
        TieBreak.ALL.forEach(t -> components.put(t.field(), o.tieBreak(t)));
        return components;
    }

    private static DebugDtos.NodeOutcome outcome(NodeVerdict v) {
        if (!v.isFeasible()) {
            return new DebugDtos.NodeOutcome(v.node(), false, v.reason().name(), v.detail(), List.of(), null, null,
                    v.provenOptimal(), null, false, false, v.stats().statesExplored(), v.stats().nanos() / 1000);
        }
        return new DebugDtos.NodeOutcome(v.node(), true, null, null,
                v.victims().victims().stream().map(DebugHandlers::ref).toList(), v.victims().pdbViolations(),
                objective(v.victims().objective()),
                v.provenOptimal(), v.stats().gap() == null ? null : v.stats().gap().describe(),
                v.dominated(), v.lastResort(), v.stats().statesExplored(), v.stats().nanos() / 1000);
    }

}
