package dev.makeroom.core.preemption;

import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.PodInfo;

/**
 * A conflict on the node itself that forces a running pod out for the pending one to fit: a
 * shared host port. (Pod anti-affinity, at any topology, is {@link InterPodConstraints}'.)
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
        return null;
    }
}
