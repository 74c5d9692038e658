package dev.makeroom.cluster;

import dev.makeroom.mapping.PodMapper;
import dev.makeroom.core.model.PodInfo;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * A pod as the live view keeps it, mapped on the informer's thread the moment it arrives: the full
 * object (managed fields, env, volumes…) is dropped at once. What only the applier can add — the
 * value of a PriorityClass when the pod carries no resolved priority, shared strings — it adds.
 */
record LeanPod(PodInfo info, boolean terminal, boolean kubeletEviction, boolean priorityFromClass) {

    static LeanPod of(Pod pod) {
        boolean unresolved = pod.getSpec() == null || pod.getSpec().getPriority() == null;
        return new LeanPod(PodMapper.toCore(pod, name -> null), PodMapper.isTerminal(pod),
                pod.getStatus() != null && "Evicted".equals(pod.getStatus().getReason()), unresolved);
    }
}
