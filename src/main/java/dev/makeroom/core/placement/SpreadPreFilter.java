package dev.makeroom.core.placement;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SpreadConstraint;

import java.util.List;
import java.util.Map;

/**
 * PodTopologySpread's pre-filter for one pod and one of its DoNotSchedule constraints: matching pods
 * per domain ({@link SpreadDomains}, never the pod itself) and the two least counts, found once so each
 * node is answered in O(1). The one home of the skew rule: whether a domain takes the pod now
 * ({@link #allows}), and how many matching pods must leave a domain first ({@link #mustLeave}).
 */
final class SpreadPreFilter {

    private final SpreadConstraint constraint;
    private final Map<String, Long> byDomain;
    private long least = Long.MAX_VALUE;
    private long secondLeast = Long.MAX_VALUE;
    private String emptiest;

    SpreadPreFilter(SpreadConstraint constraint, PodInfo pod, PlacementState state, List<SpreadConstraint> all) {
        this.constraint = constraint;
        Map<String, Long> kept = state.spreadCounts(pod, constraint);
        this.byDomain = kept != null ? kept : SpreadDomains.count(constraint, pod, state, all, pod.uid());
        for (Map.Entry<String, Long> e : byDomain.entrySet()) {
            if (e.getValue() < least) {
                secondLeast = least;
                least = e.getValue();
                emptiest = e.getKey();
            } else if (e.getValue() < secondLeast) {
                secondLeast = e.getValue();
            }
        }
    }

    /**
     * Whether placing the pod in {@code domain} keeps this constraint: matching pods there, plus one if
     * the pod matches its own selector, minus the least domain's count (0 while fewer domains than
     * minDomains exist) is at most maxSkew.
     */
    boolean allows(String domain, PodInfo pod) {
        long self = constraint.selector().matches(pod.labels()) ? 1 : 0;
        long min = SpreadDomains.floor(constraint, byDomain.size(), least);
        if (min == Long.MAX_VALUE) {
            return true; // no domain is counted: nothing to be skewed against
        }
        return byDomain.getOrDefault(domain, 0L) + self - min <= constraint.maxSkew();
    }

    /**
     * How many matching pods must leave {@code domain} for the pod to keep this constraint there, when
     * only that domain loses pods (preemption's victims all come from one node). With count(D) matching
     * pods in D, m the least count among the other domains and self = 1 if the pod matches, the skew
     * after r leave is at most maxSkew exactly when r ≥ count(D) + self − maxSkew − m; m is 0 while
     * fewer domains than minDomains exist (D counted among them), and with D the only domain nothing
     * need leave. Evictions only lower D's count, so D falling below m never breaks it.
     */
    long mustLeave(String domain, PodInfo pod) {
        long count = byDomain.getOrDefault(domain, 0L);
        long self = constraint.selector().matches(pod.labels()) ? 1 : 0;
        long others = domain.equals(emptiest) ? secondLeast : least;
        int domains = byDomain.containsKey(domain) ? byDomain.size() : byDomain.size() + 1;
        others = SpreadDomains.floor(constraint, domains, others);
        if (others == Long.MAX_VALUE) {
            return 0; // the only domain: it is always the emptiest
        }
        return Math.max(0, count + self - constraint.maxSkew() - others);
    }

    SpreadConstraint constraint() {
        return constraint;
    }
}
