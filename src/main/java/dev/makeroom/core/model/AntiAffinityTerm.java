package dev.makeroom.core.model;

import java.util.Set;

/**
 * A required pod anti-affinity term. {@code namespaces} empty and {@code allNamespaces} false
 * means the owning pod's own namespace, as in Kubernetes.
 */
public record AntiAffinityTerm(LabelSelector selector, Set<String> namespaces, boolean allNamespaces,
                               String topologyKey) {

    public static final String HOSTNAME = "kubernetes.io/hostname";

    public AntiAffinityTerm {
        namespaces = Set.copyOf(namespaces);
    }

    public boolean isPerNode() {
        return HOSTNAME.equals(topologyKey);
    }

    /** Whether {@code other} is a pod this term (owned by {@code owner}) keeps away. */
    public boolean selects(PodInfo owner, PodInfo other) {
        boolean namespaceMatches = allNamespaces
                || (namespaces.isEmpty() ? owner.namespace().equals(other.namespace())
                : namespaces.contains(other.namespace()));
        return namespaceMatches && selector.matches(other.labels());
    }
}
