package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.queue.Queue;

/** Whether a running pod may be preempted by a pending one (README: How makeroom decides, and Queues when they are on). */
public final class Candidacy {

    private Candidacy() {
    }

    /** Without queue rules: pure priority preemption. */
    public static Protection protectionOf(PodInfo running, PodInfo pending, ClusterSnapshot snapshot) {
        if (running.priority() >= pending.priority()) {
            return Protection.PRIORITY_NOT_LOWER;
        }
        return standing(running, snapshot);
    }

    /**
     * What shields a pod whatever the pending pod and its queue: terminating, mirror pod, opted out
     * ({@link Protection#NONE}: only priority and the queues decide).
     */
    public static Protection standing(PodInfo running, ClusterSnapshot snapshot) {
        if (running.terminating()) {
            return Protection.TERMINATING;
        }
        if (running.mirror()) {
            return Protection.MIRROR_POD;
        }
        return optOut(running, snapshot);
    }

    /** {@link #standing} in words, for people asking why a pod is or is not a victim. */
    public static String explainStanding(PodInfo running, ClusterSnapshot snapshot) {
        Protection protection = standing(running, snapshot);
        return switch (protection) {
            case NONE -> "preemptible by pods of priority above " + running.priority();
            case PRIORITY_CLASS_OPTED_OUT -> protection.describe() + " " + running.priorityClassName()
                    + " (a pinned DaemonSet pod may still take it)";
            default -> protection.describe() + (protection.isOptOut() ? " (a pinned DaemonSet pod may still take it)" : "");
        };
    }

    /** With queue rules: the laws first, then the plain protections; inactive rules are the plain case. */
    public static Protection protectionOf(PodInfo running, PodInfo pending, ClusterSnapshot snapshot,
                                          QueueRules rules) {
        if (rules.inactive()) {
            return protectionOf(running, pending, snapshot);
        }
        if (running.terminating() || running.mirror()) {
            return standing(running, snapshot);
        }
        Queue leaf = rules.leafOf(running);
        Protection byQueue = rules.protectionOf(running, leaf);
        if (byQueue == null && running.priority() >= pending.priority()) {
            return Protection.PRIORITY_NOT_LOWER;
        }
        if (byQueue != null && byQueue != Protection.NONE) {
            return byQueue;
        }
        // checked last, so a disabled queue's pod that a DaemonSet takes as last resort still obeys the laws
        if (leaf != null && leaf.disabledBy() != null) {
            return Protection.QUEUE_PREEMPTION_DISABLED;
        }
        return optOut(running, snapshot);
    }

    private static Protection optOut(PodInfo running, ClusterSnapshot snapshot) {
        if (running.optedOut()) {
            return Protection.POD_OPTED_OUT;
        }
        if (snapshot.classOptsOut(running.priorityClassName())) {
            return Protection.PRIORITY_CLASS_OPTED_OUT;
        }
        return Protection.NONE;
    }
}
