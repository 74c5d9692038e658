package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PriorityClassInfo;

/** Whether a running pod may be preempted by a pending one (DESIGN §2). */
public final class Candidacy {

    private Candidacy() {
    }

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
