package dev.makeroom.core.score;

import dev.makeroom.core.model.PodInfo;

/**
 * Nodes a pod should not be sent back to: the kubelet recently evicted a pod of the same
 * controller there, and placing its replacement on the same node would only start the
 * eviction over (the pod-preemption design's ping-pong).
 */
@FunctionalInterface
public interface AvoidList {

    AvoidList NONE = (pod, node) -> false;

    boolean avoid(PodInfo pod, String node);
}
