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
     * The constraint's skew over these counts: the fullest domain minus the emptiest ({@link #floor});
     * 0 with no domain.
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
        return max - floor(constraint, byDomain.size(), min);
    }

    /**
     * What the skew is measured from: the least count among the {@code domains}, or 0 while there are
     * fewer domains than the constraint's minDomains (the domains not there yet count as empty).
     */
    public static long floor(SpreadConstraint constraint, int domains, long least) {
        return domains < constraint.minDomains() ? 0 : least;
    }

    /**
     * The counts once a counted pod moved from domain {@code from} to domain {@code to}: one fewer where
     * it leaves, one more where it lands (null: a node that does not count, or no node).
     */
    public static void moved(Map<String, Long> byDomain, String from, String to) {
        if (from != null) {
            byDomain.merge(from, -1L, Long::sum);
        }
        if (to != null) {
            byDomain.merge(to, 1L, Long::sum);
        }
    }

    /** The domain of {@code node} where it counts for {@code owner}'s constraint, else null. */
    public static String countedDomain(NodeInfo node, SpreadConstraint constraint, PodInfo owner, List<SpreadConstraint> all) {
        return node != null && counts(node, constraint, owner, all) ? Topology.domainOf(node, constraint.topologyKey()) : null;
    }
}
