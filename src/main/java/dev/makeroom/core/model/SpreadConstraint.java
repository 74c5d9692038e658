package dev.makeroom.core.model;

/**
 * A topology spread constraint with {@code whenUnsatisfiable: DoNotSchedule}: placing the pod in a
 * domain of {@code topologyKey} may not make that domain hold more than {@code maxSkew} more
 * matching pods (of the pod's namespace) than the emptiest domain. {@code selector} already
 * includes the values of the pod's {@code matchLabelKeys}. With fewer than {@code minDomains}
 * domains the emptiest counts as 0. {@code honorNodeAffinity}: only nodes the pod's node selector
 * and required node affinity allow are domains (the default policy); {@code honorTaints}: only nodes
 * whose NoSchedule and NoExecute taints the pod tolerates are (nodeTaintsPolicy Honor; the default
 * ignores taints). A constraint without a {@code labelSelector} selects {@link LabelSelector#NOTHING}:
 * it counts no pod, yet a node without its key is still refused.
 */
public record SpreadConstraint(int maxSkew, String topologyKey, LabelSelector selector, int minDomains,
                               boolean honorNodeAffinity, boolean honorTaints) {

    public SpreadConstraint(int maxSkew, String topologyKey, LabelSelector selector, int minDomains,
                            boolean honorNodeAffinity) {
        this(maxSkew, topologyKey, selector, minDomains, honorNodeAffinity, false);
    }

    public boolean counts(PodInfo owner, PodInfo other) {
        return owner.namespace().equals(other.namespace()) && selector.matches(other.labels());
    }
}
