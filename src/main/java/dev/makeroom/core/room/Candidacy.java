package dev.makeroom.core.room;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodColumns;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.queue.Queue;

/** Whether a running pod may be preempted by a pending one (README: How makeroom decides, and Queues when they are on). */
public final class Candidacy {

    private Candidacy() {
    }

    /** Without queue rules: pure priority preemption. */
    public static Protection protectionOf(PodInfo running, PodInfo pending, ClusterSnapshot snapshot) {
        return plain(running.priority(), PodColumns.flagsOf(running), running, pending, snapshot);
    }

    /**
     * As above, for the pod in {@code row} of its node's {@code columns} ({@code running}): read from
     * the columns, the pod itself only when a PriorityClass may opt it out.
     */
    static Protection protectionOf(PodColumns columns, int row, PodInfo running, PodInfo pending,
                                   ClusterSnapshot snapshot) {
        return plain(columns.priority(row), columns.flags(row), running, pending, snapshot);
    }

    private static Protection plain(int priority, byte flags, PodInfo running, PodInfo pending,
                                    ClusterSnapshot snapshot) {
        if (priority >= pending.priority()) {
            return Protection.PRIORITY_NOT_LOWER;
        }
        return standing(flags, running, snapshot);
    }

    /**
     * What shields a pod whatever the pending pod and its queue: terminating, mirror pod, opted out
     * ({@link Protection#NONE}: only priority and the queues decide).
     */
    public static Protection standing(PodInfo running, ClusterSnapshot snapshot) {
        return standing(PodColumns.flagsOf(running), running, snapshot);
    }

    /** {@link #standing} from the pod's {@link PodColumns} flags. */
    private static Protection standing(byte flags, PodInfo running, ClusterSnapshot snapshot) {
        if ((flags & PodColumns.TERMINATING) != 0) {
            return Protection.TERMINATING;
        }
        if ((flags & PodColumns.MIRROR) != 0) {
            return Protection.MIRROR_POD;
        }
        return optOut(flags, running, snapshot);
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
        byte flags = PodColumns.flagsOf(running);
        if ((flags & (PodColumns.TERMINATING | PodColumns.MIRROR)) != 0) {
            return standing(flags, running, snapshot);
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
        return optOut(flags, running, snapshot);
    }

    private static Protection optOut(byte flags, PodInfo running, ClusterSnapshot snapshot) {
        if ((flags & PodColumns.OPTED_OUT) != 0) {
            return Protection.POD_OPTED_OUT;
        }
        // asked first so that, read from columns, the pod itself is not (classOptsOut needs its class's name)
        if (snapshot.anyClassOptsOut() && snapshot.classOptsOut(running.priorityClassName())) {
            return Protection.PRIORITY_CLASS_OPTED_OUT;
        }
        return Protection.NONE;
    }
}
