package dev.makeroom.core.placement;

import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;

import java.util.List;
import java.util.Optional;

/**
 * Conflicts on the node itself that force a running pod out for the pending one to fit: a shared
 * host port, and required anti-affinity on one node (by hostname) either way. (Anti-affinity at
 * wider topologies is the pre-filters' and preemption's {@code InterPodConstraints}'.)
 */
public final class Conflicts {

    private Conflicts() {
    }

    /** The first host port {@code pending} asks for that {@code running} holds too; none when they share none. */
    public static Optional<HostPort> sharedHostPort(PodInfo pending, PodInfo running) {
        List<HostPort> mine = pending.hostPorts();
        List<HostPort> theirs = running.hostPorts();
        // indexed: asked for every pod of every candidate node, and most pods have no host port
        for (int i = 0; i < mine.size(); i++) {
            for (int j = 0; j < theirs.size(); j++) {
                if (mine.get(i).conflictsWith(theirs.get(j))) {
                    return Optional.of(mine.get(i));
                }
            }
        }
        return Optional.empty();
    }

    /** Whether required anti-affinity by hostname, of either pod, keeps {@code a} and {@code b} off one node. */
    public static boolean keptApartOnNode(PodInfo a, PodInfo b) {
        return selectsOnSameNode(a, b) || selectsOnSameNode(b, a);
    }

    private static boolean selectsOnSameNode(PodInfo owner, PodInfo other) {
        for (PodAffinityTerm term : owner.antiAffinity()) {
            if (term.nodeLocal() && term.selects(owner, other)) {
                return true;
            }
        }
        return false;
    }
}
