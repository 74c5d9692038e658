package dev.makeroom.core.reschedule;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;

/**
 * Whether makeroom's preempt logic finds a node for a pending pod: then the scheduler makes room by
 * preemption, and defragmentation leaves the pod to it.
 */
@FunctionalInterface
public interface PreemptionCheck {

    /** For planners without a preempt logic at hand: preemption never places a pod. */
    PreemptionCheck NEVER = (snapshot, pending) -> false;

    boolean placesByPreemption(ClusterSnapshot snapshot, PodInfo pending);
}
