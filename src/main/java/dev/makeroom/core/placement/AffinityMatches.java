package dev.makeroom.core.placement;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;

import java.util.Objects;

/**
 * Which pods meet another pod's required pod affinity, as InterPodAffinity counts them: a pod other
 * than the owner that matches all of the owner's terms ({@link PodAffinityTerm#allSelect}), in the
 * owner's topology domain of each term's key. The pre-filter ({@link AffinityPreFilter}) gathers them for
 * every domain at once, in its one walk over every pod that leaves the pod itself out for all its terms;
 * a question about one domain (does a move leave the owner one?) walks only that domain's nodes.
 */
public final class AffinityMatches {

    private AffinityMatches() {
    }

    /** Whether {@code other} meets {@code owner}'s required affinity wherever they share its domains. */
    private static boolean meets(PodInfo owner, PodInfo other) {
        return !other.uid().equals(owner.uid())
                && PodAffinityTerm.allSelect(owner.constraints().affinity(), owner, other);
    }

    /**
     * Whether {@code state} holds, in {@code domain} of topology {@code key}, a pod that meets {@code owner}'s
     * required affinity, {@code besides} left out (null: none is).
     */
    public static boolean anyIn(PlacementState state, PodInfo owner, String key, String domain, PodInfo besides) {
        for (NodeInfo node : state.nodes()) {
            if (!Objects.equals(domain, Topology.domainOf(node, key))) {
                continue;
            }
            for (PodInfo other : state.podsOn(node)) {
                if ((besides == null || !other.uid().equals(besides.uid())) && meets(owner, other)) {
                    return true;
                }
            }
        }
        return false;
    }
}
