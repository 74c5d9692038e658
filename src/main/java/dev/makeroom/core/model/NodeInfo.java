package dev.makeroom.core.model;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A node with the pods bound to it ({@code spec.nodeName}) and the pending pods nominated to it,
 * in the order they were bound (the scheduler cache's order, which its tie-breaks depend on).
 * {@code requested} sums the bound pods' requests and counts them under {@link Resources#PODS},
 * {@code ladder} sums them by priority, and {@code columns} lays out what preemption reads of each
 * bound pod; all are computed once, since every verb reads them.
 */
public record NodeInfo(String name, Map<String, String> labels, Resources allocatable,
                       List<PodInfo> pods, List<PodInfo> nominatedPods, Resources requested, PriorityLadder ladder,
                       PodColumns columns, NodeAdmission admission) {

    /**
     * The scheduler cache appends a pod when it is added or updated, so the last-modified order
     * (resourceVersion) is the order upstream's tie-breaks see.
     */
    public static final Comparator<PodInfo> BIND_ORDER = Comparator.comparingLong(PodInfo::resourceVersion);

    public NodeInfo {
        labels = Map.copyOf(labels);
        pods = List.copyOf(pods);
        nominatedPods = List.copyOf(nominatedPods);
        admission = admission == null ? NodeAdmission.OPEN : admission;
    }

    public NodeInfo(String name, Map<String, String> labels, Resources allocatable,
                    List<PodInfo> pods, List<PodInfo> nominatedPods) {
        this(name, labels, allocatable, pods, nominatedPods, NodeAdmission.OPEN);
    }

    public NodeInfo(String name, Map<String, String> labels, Resources allocatable,
                    List<PodInfo> pods, List<PodInfo> nominatedPods, NodeAdmission admission) {
        this(List.copyOf(pods), name, labels, allocatable, nominatedPods, admission);
    }

    /** {@code pods} copied once: the node and its columns share the one list. */
    private NodeInfo(List<PodInfo> pods, String name, Map<String, String> labels, Resources allocatable,
                     List<PodInfo> nominatedPods, NodeAdmission admission) {
        this(name, labels, allocatable, pods, nominatedPods, sum(pods), PriorityLadder.of(pods), PodColumns.of(pods),
                admission);
    }

    private static Resources sum(List<PodInfo> pods) {
        Map<String, Long> total = new HashMap<>();
        for (PodInfo pod : pods) {
            Resources r = pod.requests();
            for (int i = 0; i < r.size(); i++) {
                total.merge(r.name(i), r.value(i), Long::sum);
            }
        }
        total.put(Resources.PODS, (long) pods.size());
        return Resources.of(total);
    }

    public NodeInfo withPods(List<PodInfo> newPods, List<PodInfo> newNominated) {
        return new NodeInfo(name, labels, allocatable, newPods, newNominated, admission);
    }
}
