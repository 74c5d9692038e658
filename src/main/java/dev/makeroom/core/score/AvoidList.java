package dev.makeroom.core.score;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;

import java.time.Instant;
import java.util.Map;

/**
 * Nodes a pod should not be sent back to: the kubelet recently evicted a pod of the same
 * controller there, or the rescheduler moved one off it (the node's avoid list), and placing its
 * replacement on the same node would only start over (the pod-preemption design's ping-pong).
 */
@FunctionalInterface
public interface AvoidList {

    AvoidList NONE = (pod, node) -> false;

    boolean avoid(PodInfo pod, String node);

    /** The nodes' own avoid lists in {@code snapshot} (the preferAvoidPods annotation), as of {@code now}. */
    static AvoidList ofNodes(ClusterSnapshot snapshot, Instant now) {
        Map<String, NodeInfo> avoiding = snapshot.nodesWithAvoidances(); // prioritize asks per node: look in few
        if (avoiding.isEmpty()) {
            return NONE;
        }
        return (pod, node) -> {
            NodeInfo info = avoiding.get(node);
            return info != null && info.admission().avoids(pod, now);
        };
    }

    /** Avoided by this list or by {@code other}. */
    default AvoidList or(AvoidList other) {
        if (other == NONE) {
            return this;
        }
        return this == NONE ? other : (pod, node) -> avoid(pod, node) || other.avoid(pod, node);
    }
}
