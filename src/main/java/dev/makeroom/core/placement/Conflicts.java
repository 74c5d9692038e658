package dev.makeroom.core.placement;

import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.PodInfo;

import java.util.List;

/**
 * A conflict on the node itself that forces a running pod out for the pending one to fit: a
 * shared host port. (Pod anti-affinity, at any topology, is {@code InterPodConstraints}'.)
 */
public final class Conflicts {

    private Conflicts() {
    }

    /** A short description of the conflict, or null when there is none. */
    public static String between(PodInfo pending, PodInfo running) {
        List<HostPort> mine = pending.hostPorts();
        List<HostPort> theirs = running.hostPorts();
        // indexed: asked for every pod of every candidate node, and most pods have no host port
        for (int i = 0; i < mine.size(); i++) {
            for (int j = 0; j < theirs.size(); j++) {
                if (mine.get(i).conflictsWith(theirs.get(j))) {
                    return "host port " + mine.get(i);
                }
            }
        }
        return null;
    }
}
