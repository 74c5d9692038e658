package dev.makeroom.core.model;

import java.util.Set;

/**
 * A required pod (anti-)affinity term. {@code namespaces} empty and {@code allNamespaces} false
 * means the owning pod's own namespace, as in Kubernetes. {@code namespacesByLabels}: the term
 * chooses namespaces by their labels, which makeroom's view does not hold, so it cannot tell which
 * pods the term selects.
 */
public record PodAffinityTerm(LabelSelector selector, Set<String> namespaces, boolean allNamespaces,
                              String topologyKey, boolean namespacesByLabels) {

    public static final String HOSTNAME = "kubernetes.io/hostname";

    public PodAffinityTerm {
        namespaces = Set.copyOf(namespaces);
    }

    public PodAffinityTerm(LabelSelector selector, Set<String> namespaces, boolean allNamespaces, String topologyKey) {
        this(selector, namespaces, allNamespaces, topologyKey, false);
    }

    /**
     * Whether a term by {@code topologyKey} is node-local: by hostname, each node is a domain of its own
     * (a node without the label is still its own domain), so the term reads one node and the pods on it.
     */
    public static boolean nodeLocal(String topologyKey) {
        return HOSTNAME.equals(topologyKey);
    }

    /** Whether this term is node-local ({@link #nodeLocal(String)}). */
    public boolean nodeLocal() {
        return nodeLocal(topologyKey);
    }

    /**
     * Whether {@code other} matches every one of {@code owner}'s required affinity {@code terms}: the
     * pods the scheduler's InterPodAffinity counts for that pod's affinity (false for no terms).
     */
    public static boolean allSelect(java.util.List<PodAffinityTerm> terms, PodInfo owner, PodInfo other) {
        if (terms.isEmpty()) {
            return false;
        }
        for (PodAffinityTerm term : terms) {
            if (!term.selects(owner, other)) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code other} is a pod this term (owned by {@code owner}) selects. */
    public boolean selects(PodInfo owner, PodInfo other) {
        boolean namespaceMatches = allNamespaces
                || (namespaces.isEmpty() ? owner.namespace().equals(other.namespace())
                : namespaces.contains(other.namespace()));
        return namespaceMatches && selector.matches(other.labels());
    }
}
