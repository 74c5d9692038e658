package dev.makeroom.core.model;

import java.util.List;

/**
 * What a pending pod asks of where it runs beyond resources, as far as the victims on a node can
 * change it: required pod affinity, topology spread (DoNotSchedule), the nodes its node selector
 * and required node affinity allow (any of {@code nodeTerms}, each a selector on node labels; empty:
 * every node; {@code nodeTermsReadable} false when the pod's node affinity uses what a label selector
 * cannot say, Gt, Lt or fields, and {@code nodeTerms} is then incomplete), and what makeroom cannot
 * check at all ({@code unmodelled}: on such a pod makeroom keeps the scheduler's own victims); and its
 * preferred node affinity ({@code preferred}, empty when a term uses what a label selector cannot say), and
 * its preferred pod affinity and anti-affinity ({@code preferredPods}), and its topology spread
 * constraints that only score ({@code softSpread}: ScheduleAnyway; the scheduler never refuses a node
 * for them).
 */
public record SchedulingConstraints(List<PodAffinityTerm> affinity, List<SpreadConstraint> spread,
                                    List<LabelSelector> nodeTerms, List<String> unmodelled, boolean nodeTermsReadable,
                                    List<PreferredNodeTerm> preferred, List<PreferredPodTerm> preferredPods,
                                    List<SpreadConstraint> softSpread) {

    public static final SchedulingConstraints NONE = new SchedulingConstraints(List.of(), List.of(), List.of(), List.of());

    public SchedulingConstraints(List<PodAffinityTerm> affinity, List<SpreadConstraint> spread,
                                 List<LabelSelector> nodeTerms, List<String> unmodelled) {
        this(affinity, spread, nodeTerms, unmodelled, true, List.of());
    }

    /** Without preferred pod affinity or anti-affinity. */
    public SchedulingConstraints(List<PodAffinityTerm> affinity, List<SpreadConstraint> spread,
                                 List<LabelSelector> nodeTerms, List<String> unmodelled, boolean nodeTermsReadable,
                                 List<PreferredNodeTerm> preferred) {
        this(affinity, spread, nodeTerms, unmodelled, nodeTermsReadable, preferred, List.of());
    }

    /** Without ScheduleAnyway spread constraints. */
    public SchedulingConstraints(List<PodAffinityTerm> affinity, List<SpreadConstraint> spread,
                                 List<LabelSelector> nodeTerms, List<String> unmodelled, boolean nodeTermsReadable,
                                 List<PreferredNodeTerm> preferred, List<PreferredPodTerm> preferredPods) {
        this(affinity, spread, nodeTerms, unmodelled, nodeTermsReadable, preferred, preferredPods, List.of());
    }

    /** What the pod's preferred node affinity adds up to on a node with these labels. */
    public int preferenceFor(java.util.Map<String, String> nodeLabels) {
        int score = 0;
        for (PreferredNodeTerm term : preferred) {
            if (term.selector().matches(nodeLabels)) {
                score += term.weight();
            }
        }
        return score;
    }

    public SchedulingConstraints {
        affinity = List.copyOf(affinity);
        spread = List.copyOf(spread);
        nodeTerms = List.copyOf(nodeTerms);
        unmodelled = List.copyOf(unmodelled);
        preferred = List.copyOf(preferred);
        preferredPods = List.copyOf(preferredPods);
        softSpread = List.copyOf(softSpread);
    }

    /** Whether the pod's node selector and required node affinity allow this node (the scheduler's NodeAffinity). */
    public boolean allowsNode(NodeInfo node) {
        return allowsNode(node.labels(), node.name());
    }

    /** As above, for a node of these labels and name ({@code matchFields} read the name). */
    public boolean allowsNode(java.util.Map<String, String> nodeLabels, String nodeName) {
        if (nodeTerms.isEmpty()) {
            return true;
        }
        for (LabelSelector term : nodeTerms) {
            if (term.matches(nodeLabels, nodeName)) {
                return true;
            }
        }
        return false;
    }
}
