package dev.makeroom.core.model;

import java.time.Instant;

/**
 * Room makeroom freed on a node by moving pods off it, held for one pending pod until {@code until}:
 * other pods of priority at most the pending pod's are kept off the node meanwhile. It ends early
 * when the pod binds (to any node) or is deleted.
 */
public record Reservation(PodRef pod, Instant until) {

    /** Whether the reservation still holds at {@code now}, given the pod as the snapshot has it (null: gone). */
    public boolean holds(PodInfo reserved, Instant now) {
        return until.isAfter(now) && reserved != null && !reserved.isAssigned() && !reserved.terminating();
    }

    /** Whether a holding reservation keeps {@code pod} off the node: another pod, of priority at most the reserved one's. */
    public boolean keepsOff(PodInfo pod, PodInfo reserved) {
        return !pod.uid().equals(pod().uid()) && pod.priority() <= reserved.priority();
    }

    /** Whether it holds at {@code now}, the held pod as {@code snapshot} has it. */
    public boolean holdsIn(ClusterSnapshot snapshot, Instant now) {
        return holds(snapshot.pod(pod.uid()), now);
    }

    /** Whether it holds at {@code now} and keeps {@code other} off, the held pod as {@code snapshot} has it. */
    public boolean keepsOff(PodInfo other, ClusterSnapshot snapshot, Instant now) {
        PodInfo reserved = snapshot.pod(pod.uid());
        return holds(reserved, now) && keepsOff(other, reserved);
    }

    /** What the filter says of a node it keeps a pod off. */
    public String describe() {
        return "reserved for " + pod + " by makeroom";
    }
}
