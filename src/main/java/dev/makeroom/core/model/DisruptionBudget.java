package dev.makeroom.core.model;

import java.util.Set;

/** A PodDisruptionBudget as preemption reads it (status.disruptionsAllowed and disruptedPods). */
public record DisruptionBudget(String namespace, String name, LabelSelector selector,
                               int disruptionsAllowed, Set<String> disruptedPods) {

    public DisruptionBudget {
        disruptedPods = Set.copyOf(disruptedPods);
    }

    /**
     * Whether evicting {@code pod} spends this budget. Like the kube-scheduler, an empty selector
     * covers nothing here, and a pod already being disrupted does not count again.
     */
    public boolean covers(PodInfo pod) {
        return namespace.equals(pod.namespace())
                && !selector.isEmpty()
                && selector.matches(pod.labels())
                && (disruptedPods.isEmpty() || !disruptedPods.contains(pod.name()));
    }

    /**
     * The violations of this budget when {@code spent} of the pods it covers are evicted: the evictions
     * beyond what it allows (the objective's first term; the search adds it up one victim at a time).
     */
    public long violationsAt(long spent) {
        return Math.max(0, spent - disruptionsAllowed);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
