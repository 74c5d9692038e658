package dev.makeroom.core.placement;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SpreadConstraint;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * PodTopologySpread's pre-filter for one pod and one of its DoNotSchedule constraints: matching pods
 * per domain, over the nodes the scheduler counts — those carrying the keys of all the pod's
 * constraints and meeting this constraint's node inclusion policies (its node affinity, its taints) —
 * and the least count, found once so each node is answered in O(1). A domain of such a node counts
 * even when it holds no matching pod. Counted: pods not terminating, of the pod's namespace, that the
 * selector matches, never the pod itself.
 */
final class SpreadPreFilter {

    private final SpreadConstraint constraint;
    private final Map<String, Long> byDomain = new HashMap<>();
    private long least = Long.MAX_VALUE;

    SpreadPreFilter(SpreadConstraint constraint, PodInfo pod, PlacementState state, List<SpreadConstraint> all) {
        this.constraint = constraint;
        for (NodeInfo node : state.nodes()) {
            if (!counted(node, pod, all)) {
                continue;
            }
            long matching = 0;
            for (PodInfo other : state.podsOn(node)) {
                if (!other.terminating() && !other.uid().equals(pod.uid()) && constraint.counts(pod, other)) {
                    matching++;
                }
            }
            byDomain.merge(Topology.domainOf(node, constraint.topologyKey()), matching, Long::sum);
        }
        for (long count : byDomain.values()) {
            least = Math.min(least, count);
        }
    }

    private boolean counted(NodeInfo node, PodInfo pod, List<SpreadConstraint> all) {
        for (SpreadConstraint c : all) {
            if (Topology.domainOf(node, c.topologyKey()) == null) {
                return false;
            }
        }
        if (constraint.honorNodeAffinity() && !pod.constraints().allowsNode(node)) {
            return false;
        }
        return !constraint.honorTaints() || node.admission().untoleratedTaint(pod) == null;
    }

    /**
     * Whether placing the pod in {@code domain} keeps this constraint: matching pods there, plus one if
     * the pod matches its own selector, minus the least domain's count (0 while fewer domains than
     * minDomains exist) is at most maxSkew.
     */
    boolean allows(String domain, PodInfo pod) {
        long self = constraint.selector().matches(pod.labels()) ? 1 : 0;
        long min = byDomain.size() < constraint.minDomains() ? 0 : least;
        if (min == Long.MAX_VALUE) {
            return true; // no domain is counted: nothing to be skewed against
        }
        return byDomain.getOrDefault(domain, 0L) + self - min <= constraint.maxSkew();
    }

    SpreadConstraint constraint() {
        return constraint;
    }
}
