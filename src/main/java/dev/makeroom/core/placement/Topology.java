package dev.makeroom.core.placement;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;

/** Topology domains: the one place that says which domain of a key a node is in. */
public final class Topology {

    private Topology() {
    }

    /**
     * The node's value of a topology key, or null when it has none. Every kubelet labels its node with
     * its hostname; a node that lacks that label (a hand-written snapshot) is still its own hostname domain.
     */
    public static String domainOf(NodeInfo node, String key) {
        String value = node.labels().get(key);
        return value == null && PodAffinityTerm.nodeLocal(key) ? node.name() : value;
    }
}
