package dev.makeroom.core.model;

import java.util.List;
import java.util.Map;

/**
 * A node with the pods bound to it ({@code spec.nodeName}) and the pending pods nominated to it,
 * in the order they were bound (the scheduler cache's order, which its tie-breaks depend on).
 */
public record NodeInfo(String name, Map<String, String> labels, Resources allocatable,
                       List<PodInfo> pods, List<PodInfo> nominatedPods) {

    public NodeInfo {
        labels = Map.copyOf(labels);
        pods = List.copyOf(pods);
        nominatedPods = List.copyOf(nominatedPods);
    }

    public NodeInfo withPods(List<PodInfo> newPods, List<PodInfo> newNominated) {
        return new NodeInfo(name, labels, allocatable, newPods, newNominated);
    }
}
