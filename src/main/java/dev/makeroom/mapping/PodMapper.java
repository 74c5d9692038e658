package dev.makeroom.mapping;

import dev.makeroom.core.accounting.ContainerRequests;
import dev.makeroom.core.accounting.PodRequestCalculator;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PreemptionPolicy;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.Toleration;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Maps a fabric8 Pod to the core's {@link PodInfo}, keeping only what decisions read. Requests
 * default to limits where only limits are given, as the API server does on admission.
 */
public final class PodMapper {

    static final String SPARK_ROLE = "spark-role";

    private PodMapper() {
    }

    /** {@code classValues} resolves a PriorityClass name when the pod carries no resolved priority. */
    public static PodInfo toCore(Pod pod, Function<String, Integer> classValues) {
        return toCore(pod, classValues, null);
    }

    /** As {@link #toCore(Pod, Function)}, sharing repeated strings and label maps through {@code interning}. */
    public static PodInfo toCore(Pod pod, Function<String, Integer> classValues, Interning interning) {
        PodInfo info = map(pod, classValues);
        return interning == null ? info : intern(info, interning);
    }

    /** The same pod with its repeated strings and label maps shared through {@code interning}. */
    public static PodInfo intern(PodInfo info, Interning interning) {
        return info.toBuilder()
                .namespace(interning.string(info.namespace()))
                .nodeName(interning.string(info.nodeName()))
                .nominatedNodeName(interning.string(info.nominatedNodeName()))
                .priorityClassName(interning.string(info.priorityClassName()))
                .labels(interning.labels(info.labels()))
                .queueHint(interning.string(info.queueHint()))
                .schedulerName(interning.string(info.schedulerName()))
                .applicationId(interning.string(info.applicationId()))
                .tolerations(interning.tolerations(info.tolerations()))
                .constraints(interning.constraints(info.constraints()))
                .build();
    }

    private static PodInfo map(Pod pod, Function<String, Integer> classValues) {
        ObjectMeta meta = pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata();
        PodSpec spec = pod.getSpec() == null ? new PodSpec() : pod.getSpec();
        Map<String, String> labels = StringMaps.clean(meta.getLabels());
        Map<String, String> annotations = StringMaps.clean(meta.getAnnotations());
        String uid = meta.getUid() != null ? meta.getUid() : meta.getNamespace() + "/" + meta.getName();
        var status = pod.getStatus();
        return PodInfo.builder(uid)
                .namespace(meta.getNamespace() == null ? "default" : meta.getNamespace())
                .name(meta.getName())
                .nodeName(spec.getNodeName())
                .nominatedNodeName(status == null ? null : status.getNominatedNodeName())
                .priority(priority(spec, classValues))
                .priorityClassName(spec.getPriorityClassName())
                .preemptionPolicy("Never".equals(spec.getPreemptionPolicy()) ? PreemptionPolicy.NEVER
                        : PreemptionPolicy.PREEMPT_LOWER_PRIORITY)
                .requests(requests(spec, status))
                .qos(qos(spec, status == null ? null : status.getQosClass()))
                .labels(labels)
                .terminating(meta.getDeletionTimestamp() != null)
                .mirror(annotations.containsKey(Annotations.MIRROR))
                .optedOut(Annotations.optedOut(annotations))
                .originator("driver".equals(labels.get(SPARK_ROLE)) || Annotations.isTrue(annotations, Annotations.ORIGINATOR))
                .controller(controller(meta))
                .pinnedNode(pinnedNode(spec))
                .hostPorts(hostPorts(spec))
                .antiAffinity(antiAffinity(spec))
                .terminationGracePeriodSeconds(spec.getTerminationGracePeriodSeconds() == null ? 30
                        : spec.getTerminationGracePeriodSeconds())
                .startTime(Timestamps.parse(status == null ? null : status.getStartTime()))
                .creationTime(Timestamps.parse(meta.getCreationTimestamp()))
                .resourceVersion(resourceVersion(meta.getResourceVersion()))
                .queueHint(Annotations.queueHint(labels, annotations))
                .applicationId(application(labels, meta))
                .constraints(ConstraintsMapper.of(spec, labels))
                .tolerations(tolerations(spec))
                .evictable(Annotations.evictable(annotations))
                .localStorage(list(spec.getVolumes()).stream().anyMatch(v -> v != null
                        && (v.getEmptyDir() != null || v.getHostPath() != null)))
                .schedulerName(spec.getSchedulerName())
                .unschedulableSince(unschedulableSince(status))
                .defragmentable(Annotations.defragmentable(annotations))
                .checkpointedAt(Timestamps.parse(annotations.get(Annotations.CHECKPOINTED_AT)))
                .gang(GangMembership.of(meta.getNamespace() == null ? "default" : meta.getNamespace(), spec, labels,
                        annotations))
                .claims(PodClaims.of(spec, status))
                .build();
    }

    /** When the scheduler last said it found no node for the pod: its PodScheduled condition, False for Unschedulable. */
    private static Instant unschedulableSince(PodStatus status) {
        PodCondition scheduled = condition(status, "PodScheduled");
        if (scheduled == null || !"False".equals(scheduled.getStatus()) || !"Unschedulable".equals(scheduled.getReason())) {
            return null;
        }
        Instant since = Timestamps.parse(scheduled.getLastTransitionTime());
        return since != null ? since : Instant.EPOCH;
    }

    /** The status's condition of {@code type} (conditions are keyed by type), or null. */
    private static PodCondition condition(PodStatus status, String type) {
        if (status == null) {
            return null;
        }
        for (PodCondition condition : list(status.getConditions())) {
            if (condition != null && type.equals(condition.getType())) {
                return condition;
            }
        }
        return null;
    }

    private static List<Toleration> tolerations(PodSpec spec) {
        List<Toleration> out = new ArrayList<>();
        for (var t : list(spec.getTolerations())) {
            if (t != null) {
                out.add(new Toleration(t.getKey(), t.getOperator(), t.getValue(), t.getEffect()));
            }
        }
        return out;
    }

    /** Its application label, else the controlling owner's UID (all pods of one job or set). */
    private static String application(Map<String, String> labels, ObjectMeta meta) {
        String named = Annotations.application(labels);
        if (named != null) {
            return named;
        }
        for (OwnerReference ref : list(meta.getOwnerReferences())) {
            if (Boolean.TRUE.equals(ref.getController()) && ref.getUid() != null) {
                return ref.getUid();
            }
        }
        return null;
    }

    /** Pods the scheduler no longer accounts for: they finished. */
    public static boolean isTerminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static int priority(PodSpec spec, Function<String, Integer> classValues) {
        if (spec.getPriority() != null) {
            return spec.getPriority();
        }
        Integer value = spec.getPriorityClassName() == null ? null : classValues.apply(spec.getPriorityClassName());
        return value == null ? 0 : value;
    }

    /**
     * The pod's effective request as a current kube-scheduler counts it: the containers' (init
     * containers and sidecars folded in); while a resize is under way (in-place resize: the
     * containers' statuses name allocated or actual resources), the larger of what the spec asks,
     * what is allocated and what runs, or, when the resize is infeasible, of the latter two; then the
     * pod-level requests ({@code spec.resources}) for cpu, memory and hugepages; plus the overhead.
     */
    static Resources requests(PodSpec spec, PodStatus status) {
        Resources asked = containersRequest(spec, c -> containerRequests(c.getResources()));
        if (status != null && resizing(status)) {
            boolean infeasible = resizeInfeasible(status);
            Map<String, ContainerStatus> statuses = containerStatuses(status);
            Resources allocated = containersRequest(spec, c -> allocatedRequests(c, statuses.get(c.getName()), infeasible));
            Resources actual = containersRequest(spec, c -> actualRequests(c, statuses.get(c.getName()), infeasible));
            asked = infeasible ? actual.max(allocated) : asked.max(actual).max(allocated);
        }
        Resources podLevel = spec.getResources() == null ? Resources.NONE
                : Resources.of(Quantities.toLongs(spec.getResources().getRequests()));
        return PodRequestCalculator.withPodLevel(asked, podLevel)
                .plus(Resources.of(Quantities.toLongs(spec.getOverhead())));
    }

    /** The containers' request together, each container's read by {@code each}. */
    private static Resources containersRequest(PodSpec spec, Function<Container, Resources> each) {
        List<Resources> containers = new ArrayList<>();
        for (Container c : list(spec.getContainers())) {
            containers.add(each.apply(c));
        }
        List<ContainerRequests> inits = new ArrayList<>();
        for (Container c : list(spec.getInitContainers())) {
            inits.add(new ContainerRequests(each.apply(c), "Always".equals(c.getRestartPolicy())));
        }
        return PodRequestCalculator.containersRequest(containers, inits);
    }

    /** Whether a container's status names allocated or actual resources: an in-place resize may be under way. */
    private static boolean resizing(PodStatus status) {
        for (ContainerStatus cs : containerStatuses(status).values()) {
            if (cs.getAllocatedResources() != null && !cs.getAllocatedResources().isEmpty()
                    || cs.getResources() != null && cs.getResources().getRequests() != null) {
                return true;
            }
        }
        return false;
    }

    private static boolean resizeInfeasible(PodStatus status) {
        PodCondition pending = condition(status, "PodResizePending");
        return pending != null && "Infeasible".equals(pending.getReason());
    }

    private static Map<String, ContainerStatus> containerStatuses(PodStatus status) {
        Map<String, ContainerStatus> byName = new HashMap<>();
        for (ContainerStatus cs : list(status.getInitContainerStatuses())) {
            if (cs != null && cs.getName() != null) {
                byName.put(cs.getName(), cs);
            }
        }
        for (ContainerStatus cs : list(status.getContainerStatuses())) {
            if (cs != null && cs.getName() != null) {
                byName.put(cs.getName(), cs);
            }
        }
        return byName;
    }

    /** What the kubelet allocated the container; without a word of it, its spec (nothing if the resize is infeasible). */
    private static Resources allocatedRequests(Container c, ContainerStatus cs, boolean infeasible) {
        if (cs != null && cs.getAllocatedResources() != null) {
            return Resources.of(Quantities.toLongs(cs.getAllocatedResources()));
        }
        return infeasible ? Resources.NONE : containerRequests(c.getResources());
    }

    /** What the container runs with; else what it was allocated; else its spec (nothing if the resize is infeasible). */
    private static Resources actualRequests(Container c, ContainerStatus cs, boolean infeasible) {
        if (cs != null && cs.getResources() != null && cs.getResources().getRequests() != null) {
            return Resources.of(Quantities.toLongs(cs.getResources().getRequests()));
        }
        return allocatedRequests(c, cs, infeasible);
    }

    private static Resources containerRequests(ResourceRequirements resources) {
        if (resources == null) {
            return Resources.NONE;
        }
        Map<String, Quantity> effective = new HashMap<>();
        if (resources.getLimits() != null) {
            effective.putAll(resources.getLimits());
        }
        if (resources.getRequests() != null) {
            effective.putAll(resources.getRequests());
        }
        return Resources.of(Quantities.toLongs(effective));
    }

    private static QosClass qos(PodSpec spec, String reported) {
        if (reported != null) {
            switch (reported) {
                case "Guaranteed": return QosClass.GUARANTEED;
                case "Burstable": return QosClass.BURSTABLE;
                case "BestEffort": return QosClass.BEST_EFFORT;
                default: break;
            }
        }
        boolean any = false;
        boolean guaranteed = true;
        List<Container> all = new ArrayList<>(list(spec.getContainers()));
        all.addAll(list(spec.getInitContainers()));
        for (Container c : all) {
            ResourceRequirements r = c.getResources();
            Map<String, Quantity> limits = r == null || r.getLimits() == null ? Map.of() : r.getLimits();
            Map<String, Quantity> requests = r == null || r.getRequests() == null ? Map.of() : r.getRequests();
            for (String res : List.of("cpu", "memory")) {
                any |= limits.containsKey(res) || requests.containsKey(res);
                Quantity limit = limits.get(res);
                Quantity request = requests.getOrDefault(res, limit);
                guaranteed &= limit != null && request != null
                        && limit.getNumericalAmount().compareTo(request.getNumericalAmount()) == 0;
            }
        }
        return !any ? QosClass.BEST_EFFORT : guaranteed ? QosClass.GUARANTEED : QosClass.BURSTABLE;
    }

    private static OwnerRef controller(ObjectMeta meta) {
        for (OwnerReference ref : list(meta.getOwnerReferences())) {
            if (Boolean.TRUE.equals(ref.getController())) {
                return new OwnerRef(ref.getKind(), ref.getName(), ref.getUid());
            }
        }
        return null;
    }

    /** The one node a required node affinity on {@code metadata.name} allows, as DaemonSet pods carry. */
    private static String pinnedNode(PodSpec spec) {
        if (spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null
                || spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return null;
        }
        List<NodeSelectorTerm> terms = list(spec.getAffinity().getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms());
        if (terms.size() != 1) {
            return null;
        }
        for (NodeSelectorRequirement field : list(terms.get(0).getMatchFields())) {
            if ("metadata.name".equals(field.getKey()) && "In".equals(field.getOperator())
                    && field.getValues() != null && field.getValues().size() == 1) {
                return field.getValues().get(0);
            }
        }
        return null;
    }

    private static List<HostPort> hostPorts(PodSpec spec) {
        List<HostPort> ports = new ArrayList<>();
        for (Container c : list(spec.getContainers())) {
            for (ContainerPort p : list(c.getPorts())) {
                if (p.getHostPort() != null && p.getHostPort() > 0) {
                    ports.add(new HostPort(p.getHostIP(), p.getProtocol(), p.getHostPort()));
                }
            }
        }
        return ports;
    }

    private static List<PodAffinityTerm> antiAffinity(PodSpec spec) {
        if (spec.getAffinity() == null || spec.getAffinity().getPodAntiAffinity() == null) {
            return List.of();
        }
        return ConstraintsMapper.terms(spec.getAffinity().getPodAntiAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution());
    }

    private static long resourceVersion(String rv) {
        try {
            return rv == null ? 0 : Long.parseLong(rv);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A list fabric8 may leave null, as an empty one. */
    static <T> List<T> list(List<T> maybe) {
        return maybe == null ? List.of() : maybe;
    }
}
