package dev.makeroom.core.model;

import java.util.List;

/**
 * What keeps pods off a node whatever its resources: cordoned ({@code unschedulable}) and the taints
 * that repel pods not tolerating them. The extender's filter never needs it (the scheduler's own filters
 * run first); moving pods does, since makeroom must show where a moved pod can go.
 */
public record NodeAdmission(boolean unschedulable, List<Taint> taints) {

    public static final NodeAdmission OPEN = new NodeAdmission(false, List.of());

    public NodeAdmission {
        taints = List.copyOf(taints);
    }

    /** Whether the scheduler would let {@code pod} onto the node (NodeUnschedulable and TaintToleration). */
    public boolean admits(PodInfo pod) {
        if (unschedulable && !tolerated(pod, Taint.UNSCHEDULABLE)) {
            return false;
        }
        for (Taint taint : taints) {
            if (taint.repels() && !tolerated(pod, taint)) {
                return false;
            }
        }
        return true;
    }

    private static boolean tolerated(PodInfo pod, Taint taint) {
        for (Toleration toleration : pod.tolerations()) {
            if (toleration.tolerates(taint)) {
                return true;
            }
        }
        return false;
    }
}
