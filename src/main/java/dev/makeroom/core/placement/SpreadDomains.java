package dev.makeroom.core.placement;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SpreadConstraint;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How PodTopologySpread counts, in one place: which nodes a constraint of {@code owner} counts (those
 * carrying the keys of all the owner's constraints and meeting this constraint's node inclusion
 * policies: its node affinity, its taints), and the matching pods per domain of those nodes — pods not
 * terminating, of the owner's namespace, that the selector matches. A counted node's domain is present
 * even when it holds no matching pod.
 */
public final class SpreadDomains {

    private SpreadDomains() {
    }

    /** Whether {@code node} is one the constraint of {@code owner} counts. */
    public static boolean counts(NodeInfo node, SpreadConstraint constraint, PodInfo owner, List<SpreadConstraint> all) {
        for (SpreadConstraint c : all) {
            if (Topology.domainOf(node, c.topologyKey()) == null) {
                return false;
            }
        }
        if (constraint.honorNodeAffinity() && !owner.constraints().allowsNode(node)) {
            return false;
        }
        return !constraint.honorTaints() || node.admission().untoleratedTaint(owner) == null;
    }

    /** Matching pods per counted domain on {@code state}, never the pod of uid {@code excluded} (null: none). */
    public static Map<String, Long> count(SpreadConstraint constraint, PodInfo owner, PlacementState state,
                                          List<SpreadConstraint> all, String excluded) {
        Map<String, Long> byDomain = new HashMap<>();
        for (NodeInfo node : state.nodes()) {
            if (!counts(node, constraint, owner, all)) {
                continue;
            }
            long matching = 0;
            for (PodInfo other : state.podsOn(node)) {
                if (!other.terminating() && !other.uid().equals(excluded) && constraint.counts(owner, other)) {
                    matching++;
                }
            }
            byDomain.merge(Topology.domainOf(node, constraint.topologyKey()), matching, Long::sum);
        }
        return byDomain;
    }

    /**
     * The constraint's skew over these counts: the fullest domain minus the emptiest (0 while fewer
     * domains than minDomains exist); 0 with no domain.
     */
    public static long skew(SpreadConstraint constraint, Map<String, Long> byDomain) {
        if (byDomain.isEmpty()) {
            return 0;
        }
        long max = Long.MIN_VALUE;
        long min = Long.MAX_VALUE;
        for (long count : byDomain.values()) {
            max = Math.max(max, count);
            min = Math.min(min, count);
        }
        return max - (byDomain.size() < constraint.minDomains() ? 0 : min);
    }
}
