package dev.makeroom.core.preemption;

import dev.makeroom.core.model.AntiAffinityTerm;
import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.PodInfo;

/**
 * Non-resource conflicts that force a running pod out for the pending one to fit: a shared host
 * port, or required pod anti-affinity on {@code kubernetes.io/hostname} in either direction.
 */
public final class Conflicts {

    private Conflicts() {
    }

    /** A short description of the conflict, or null when there is none. */
    public static String between(PodInfo pending, PodInfo running) {
        for (HostPort mine : pending.hostPorts()) {
            for (HostPort theirs : running.hostPorts()) {
                if (mine.conflictsWith(theirs)) {
                    return "host port " + mine;
                }
            }
        }
        for (AntiAffinityTerm term : pending.antiAffinity()) {
            if (term.isPerNode() && term.selects(pending, running)) {
                return "pod anti-affinity of the pending pod";
            }
        }
        for (AntiAffinityTerm term : running.antiAffinity()) {
            if (term.isPerNode() && term.selects(running, pending)) {
                return "pod anti-affinity of " + running.ref();
            }
        }
        return null;
    }
}
