package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.WorkPrice;

/**
 * Whether makeroom's preempt logic finds a node for a pending pod: then the scheduler makes room by
 * preemption, and defragmentation leaves the pod to it.
 */
@FunctionalInterface
public interface PreemptionCheck {

    /** For planners without a preempt logic at hand: preemption never places a pod. */
    PreemptionCheck NEVER = (snapshot, pending) -> false;

    boolean placesByPreemption(ClusterSnapshot snapshot, PodInfo pending);

    /**
     * What evicting a running pod loses, as preemption prices it: defragmentation prices the pods it moves
     * alike (a move is an eviction too, and one that just checkpointed loses least).
     */
    default WorkPrice workPrice() {
        return WorkPrice.DEFAULT;
    }

    /**
     * This check asked once per pod shape on one snapshot (a round's): pending pods that differ only in
     * who they are (uid, name) and when they came get the same answer from the same snapshot, and a
     * Job's thousand pods should not each cost a preemption decision over every node.
     */
    default PreemptionCheck oncePerShape() {
        PreemptionCheck check = this;
        java.util.Map<PodInfo, Boolean> answers = new java.util.HashMap<>();
        ClusterSnapshot[] askedOf = {null};
        return (snapshot, pending) -> {
            if (askedOf[0] != snapshot) {
                answers.clear();
                askedOf[0] = snapshot;
            }
            PodInfo shape = PodShape.of(pending).build();
            return answers.computeIfAbsent(shape, s -> check.placesByPreemption(snapshot, pending));
        };
    }
}
