package dev.makeroom.core.model;

import java.util.List;

/**
 * What keeps pods off a node whatever its resources: cordoned ({@code unschedulable}) and the taints
 * that repel pods not tolerating them; and, softly, its avoid list ({@code avoided}: controllers whose
 * pods prioritize keeps away); and the room makeroom holds there for one pending pod
 * ({@code reservation}, null when none). The extender's filter never needs the first two (the scheduler's own
 * filters run first); moving pods does, since makeroom must show where a moved pod can go.
 */
public record NodeAdmission(boolean unschedulable, List<Taint> taints, List<Avoidance> avoided,
                            List<Reservation> reservations) {

    public static final NodeAdmission OPEN = new NodeAdmission(false, List.of(), List.of(), List.of());

    public NodeAdmission {
        taints = List.copyOf(taints);
        avoided = List.copyOf(avoided);
        reservations = reservations == null ? List.of() : List.copyOf(reservations);
    }

    /** With one reservation ({@code reservation}; null: none). */
    public NodeAdmission(boolean unschedulable, List<Taint> taints, List<Avoidance> avoided, Reservation reservation) {
        this(unschedulable, taints, avoided, reservation == null ? List.of() : List.of(reservation));
    }

    public NodeAdmission(boolean unschedulable, List<Taint> taints) {
        this(unschedulable, taints, List.of(), List.of());
    }

    public NodeAdmission(boolean unschedulable, List<Taint> taints, List<Avoidance> avoided) {
        this(unschedulable, taints, avoided, List.of());
    }

    /** Whether the avoid list keeps {@code pod}'s controller off the node at {@code now}. */
    public boolean avoids(PodInfo pod, java.time.Instant now) {
        if (avoided.isEmpty() || pod.controller() == null || pod.controller().uid() == null) {
            return false;
        }
        for (Avoidance a : avoided) {
            if (a.controllerUid().equals(pod.controller().uid()) && a.activeAt(now)) {
                return true;
            }
        }
        return false;
    }

    /** Whether makeroom's own entries include one past its time, to be removed. */
    public boolean hasExpiredOwn(java.time.Instant now) {
        return avoided.stream().anyMatch(a -> a.own() && !a.activeAt(now));
    }

    /** Whether the scheduler would let {@code pod} onto the node (NodeUnschedulable and TaintToleration). */
    public boolean admits(PodInfo pod) {
        return !keepsOffAsCordoned(pod) && untoleratedTaint(pod) == null;
    }

    /** The scheduler's NodeUnschedulable: cordoned, and the pod does not tolerate the cordon's taint. */
    public boolean keepsOffAsCordoned(PodInfo pod) {
        return unschedulable && !tolerated(pod, Taint.UNSCHEDULABLE);
    }

    /** The scheduler's TaintToleration: the first NoSchedule or NoExecute taint {@code pod} does not tolerate, or null. */
    public Taint untoleratedTaint(PodInfo pod) {
        return untoleratedTaint(pod, Taint::repels);
    }

    /** The first of the node's taints that {@code which} picks and {@code pod} does not tolerate, or null. */
    public Taint untoleratedTaint(PodInfo pod, java.util.function.Predicate<Taint> which) {
        for (Taint taint : taints) {
            if (which.test(taint) && !tolerated(pod, taint)) {
                return taint;
            }
        }
        return null;
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
