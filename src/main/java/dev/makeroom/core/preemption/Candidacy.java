package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PriorityClassInfo;
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
        if (running.terminating()) {
            return Protection.TERMINATING;
        }
        if (running.mirror()) {
            return Protection.MIRROR_POD;
        }
        return optOut(running, snapshot);
    }

    /** With queue rules: the laws first, then the plain protections; inactive rules are the plain case. */
    public static Protection protectionOf(PodInfo running, PodInfo pending, ClusterSnapshot snapshot,
                                          QueueRules rules) {
        if (rules.inactive()) {
            return protectionOf(running, pending, snapshot);
        }
        if (running.terminating()) {
            return Protection.TERMINATING;
        }
        if (running.mirror()) {
            return Protection.MIRROR_POD;
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
        PriorityClassInfo pc = snapshot.priorityClass(running.priorityClassName());
        if (pc != null && pc.optedOut()) {
            return Protection.PRIORITY_CLASS_OPTED_OUT;
        }
        return Protection.NONE;
    }
}
