package dev.makeroom.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What makeroom knows of one pod: only the fields its decisions read. {@code requests} is the
 * pod's effective request (init containers, sidecars and overhead already folded in).
 */
public record PodInfo(
        String uid,
        String namespace,
        String name,
        String nodeName,
        String nominatedNodeName,
        int priority,
        String priorityClassName,
        PreemptionPolicy preemptionPolicy,
        Resources requests,
        QosClass qos,
        Map<String, String> labels,
        boolean terminating,
        boolean mirror,
        boolean optedOut,
        boolean originator,
        OwnerRef controller,
        String pinnedNode,
        List<HostPort> hostPorts,
        List<PodAffinityTerm> antiAffinity,
        long terminationGracePeriodSeconds,
        Instant startTime,
        Instant creationTime,
        long resourceVersion,
        String queueHint,
        String applicationId,
        SchedulingConstraints constraints,
        List<Toleration> tolerations,
        boolean evictable,
        boolean localStorage,
        String schedulerName,
        Instant unschedulableSince,
        boolean defragmentable,
        Gang gang,
        Instant checkpointedAt,
        List<PodClaim> claims) {

    /** The scheduler a pod names when it names none. */
    public static final String DEFAULT_SCHEDULER = "default-scheduler";


    public PodInfo {
        Objects.requireNonNull(uid, "uid");
        labels = Map.copyOf(labels);
        hostPorts = List.copyOf(hostPorts);
        antiAffinity = List.copyOf(antiAffinity);
        requests = requests == null ? Resources.NONE : requests;
        qos = qos == null ? QosClass.BEST_EFFORT : qos;
        preemptionPolicy = preemptionPolicy == null ? PreemptionPolicy.PREEMPT_LOWER_PRIORITY : preemptionPolicy;
        constraints = constraints == null ? SchedulingConstraints.NONE : constraints;
        claims = claims == null ? List.of() : List.copyOf(claims);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        schedulerName = schedulerName == null || schedulerName.isEmpty() ? DEFAULT_SCHEDULER : schedulerName;
    }

    public PodRef ref() {
        return new PodRef(namespace, name, uid);
    }

    /** What evicting or moving the pod frees of {@code resource}: one under {@link Resources#PODS}, else its request. */
    public long frees(String resource) {
        return freed(resource, requests.get(resource));
    }

    /** What a pod requesting {@code requested} of {@code resource} frees of it (its {@link PodColumns} row reads this too). */
    static long freed(String resource, long requested) {
        return Resources.PODS.equals(resource) ? 1 : Math.max(0, requested);
    }

    public boolean isAssigned() {
        return nodeName != null && !nodeName.isEmpty();
    }

    /** A DaemonSet pod that may run on exactly one node (the last resort of an opt-out; README, How makeroom decides). */
    public boolean isDaemonSetPodFor(String node) {
        return controller != null && controller.isDaemonSet() && node.equals(pinnedNode);
    }

    public static Builder builder(String uid) {
        return new Builder(uid);
    }

    public Builder toBuilder() {
        Builder b = new Builder(uid);
        b.namespace = namespace;
        b.name = name;
        b.nodeName = nodeName;
        b.nominatedNodeName = nominatedNodeName;
        b.priority = priority;
        b.priorityClassName = priorityClassName;
        b.preemptionPolicy = preemptionPolicy;
        b.requests = requests;
        b.qos = qos;
        b.labels = labels;
        b.terminating = terminating;
        b.mirror = mirror;
        b.optedOut = optedOut;
        b.originator = originator;
        b.controller = controller;
        b.pinnedNode = pinnedNode;
        b.hostPorts = hostPorts;
        b.antiAffinity = antiAffinity;
        b.terminationGracePeriodSeconds = terminationGracePeriodSeconds;
        b.startTime = startTime;
        b.creationTime = creationTime;
        b.resourceVersion = resourceVersion;
        b.queueHint = queueHint;
        b.applicationId = applicationId;
        b.constraints = constraints;
        b.tolerations = tolerations;
        b.evictable = evictable;
        b.localStorage = localStorage;
        b.schedulerName = schedulerName;
        b.unschedulableSince = unschedulableSince;
        b.defragmentable = defragmentable;
        b.gang = gang;
        b.checkpointedAt = checkpointedAt;
        b.claims = claims;
        return b;
    }

    /** Fluent construction; unset fields take Kubernetes' defaults. */
    public static final class Builder {
        private String uid;
        private String namespace = "default";
        private String name;
        private String nodeName;
        private String nominatedNodeName;
        private int priority;
        private String priorityClassName;
        private PreemptionPolicy preemptionPolicy = PreemptionPolicy.PREEMPT_LOWER_PRIORITY;
        private Resources requests = Resources.NONE;
        private QosClass qos = QosClass.BEST_EFFORT;
        private Map<String, String> labels = Map.of();
        private boolean terminating;
        private boolean mirror;
        private boolean optedOut;
        private boolean originator;
        private OwnerRef controller;
        private String pinnedNode;
        private List<HostPort> hostPorts = List.of();
        private List<PodAffinityTerm> antiAffinity = List.of();
        private long terminationGracePeriodSeconds = 30;
        private Instant startTime;
        private Instant creationTime;
        private long resourceVersion;
        private String queueHint;
        private String applicationId;
        private SchedulingConstraints constraints = SchedulingConstraints.NONE;
        private List<Toleration> tolerations = List.of();
        private boolean evictable = true;
        private boolean localStorage;
        private String schedulerName = DEFAULT_SCHEDULER;
        private Instant unschedulableSince;
        private boolean defragmentable = true;
        private Gang gang;
        private Instant checkpointedAt;
        private List<PodClaim> claims = List.of();

        private Builder(String uid) {
            this.uid = uid;
            this.name = uid;
        }

        public Builder uid(String v) { uid = v; return this; }
        public Builder namespace(String v) { namespace = v; return this; }
        public Builder name(String v) { name = v; return this; }
        public Builder nodeName(String v) { nodeName = v; return this; }
        public Builder nominatedNodeName(String v) { nominatedNodeName = v; return this; }
        public Builder priority(int v) { priority = v; return this; }
        public Builder priorityClassName(String v) { priorityClassName = v; return this; }
        public Builder preemptionPolicy(PreemptionPolicy v) { preemptionPolicy = v; return this; }
        public Builder requests(Resources v) { requests = v; return this; }
        public Builder qos(QosClass v) { qos = v; return this; }
        public Builder labels(Map<String, String> v) { labels = v; return this; }
        public Builder terminating(boolean v) { terminating = v; return this; }
        public Builder mirror(boolean v) { mirror = v; return this; }
        public Builder optedOut(boolean v) { optedOut = v; return this; }
        public Builder originator(boolean v) { originator = v; return this; }
        public Builder controller(OwnerRef v) { controller = v; return this; }
        public Builder pinnedNode(String v) { pinnedNode = v; return this; }
        public Builder hostPorts(List<HostPort> v) { hostPorts = v; return this; }
        public Builder antiAffinity(List<PodAffinityTerm> v) { antiAffinity = v; return this; }
        public Builder terminationGracePeriodSeconds(long v) { terminationGracePeriodSeconds = v; return this; }
        public Builder startTime(Instant v) { startTime = v; return this; }
        public Builder creationTime(Instant v) { creationTime = v; return this; }
        public Builder resourceVersion(long v) { resourceVersion = v; return this; }
        /** The queue the pod names for itself (label or annotation), before any mapping. */
        public Builder queueHint(String v) { queueHint = v; return this; }
        public Builder applicationId(String v) { applicationId = v; return this; }
        /** What the pod asks of its placement beyond resources (read when it is the pending pod). */
        public Builder constraints(SchedulingConstraints v) { constraints = v; return this; }
        public Builder tolerations(List<Toleration> v) { tolerations = v; return this; }
        /** False when the pod asks never to be moved ({@code makeroom.dev/evictable: "false"}). */
        public Builder evictable(boolean v) { evictable = v; return this; }
        /** Whether the pod keeps data on its node (emptyDir or hostPath volumes), lost if it moves. */
        public Builder localStorage(boolean v) { localStorage = v; return this; }
        public Builder schedulerName(String v) { schedulerName = v; return this; }
        /** Since when the scheduler has found no node for it (condition PodScheduled False, reason Unschedulable); null if not. */
        public Builder unschedulableSince(Instant v) { unschedulableSince = v; return this; }
        /** False when the pod asks not to take part in defragmentation ({@code makeroom.dev/defragment: "false"}). */
        public Builder defragmentable(boolean v) { defragmentable = v; return this; }
        /** The gang the pod belongs to, or null when it belongs to none. */
        public Builder gang(Gang v) { gang = v; return this; }
        /** When the workload last saved its progress ({@code makeroom.dev/checkpointed-at}); null if it never said. */
        public Builder checkpointedAt(Instant v) { checkpointedAt = v; return this; }
        /** The pod's resource claims (dynamic resource allocation), each with the claim that serves it. */
        public Builder claims(List<PodClaim> v) { claims = v; return this; }

        public PodInfo build() {
            return new PodInfo(uid, namespace, name, nodeName, nominatedNodeName, priority, priorityClassName,
                    preemptionPolicy, requests, qos, labels, terminating, mirror, optedOut, originator, controller,
                    pinnedNode, hostPorts, antiAffinity, terminationGracePeriodSeconds, startTime, creationTime,
                    resourceVersion, queueHint, applicationId, constraints, tolerations, evictable, localStorage,
                    schedulerName, unschedulableSince, defragmentable, gang, checkpointedAt, claims);
        }
    }
}
