package dev.makeroom.core.placement;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SpreadConstraint;

import java.util.List;
import java.util.Map;

/**
 * PodTopologySpread's pre-filter for one pod and one of its DoNotSchedule constraints: matching pods
 * per domain ({@link SpreadDomains}, never the pod itself) and the least count, found once so each node
 * is answered in O(1).
 */
final class SpreadPreFilter {

    private final SpreadConstraint constraint;
    private final Map<String, Long> byDomain;
    private long least = Long.MAX_VALUE;

    SpreadPreFilter(SpreadConstraint constraint, PodInfo pod, PlacementState state, List<SpreadConstraint> all) {
        this.constraint = constraint;
        Map<String, Long> kept = state.spreadCounts(pod, constraint);
        this.byDomain = kept != null ? kept : SpreadDomains.count(constraint, pod, state, all, pod.uid());
        for (long count : byDomain.values()) {
            least = Math.min(least, count);
        }
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

    /** Matching pods per counted domain. */
    Map<String, Long> byDomain() {
        return byDomain;
    }

    SpreadConstraint constraint() {
        return constraint;
    }
}
