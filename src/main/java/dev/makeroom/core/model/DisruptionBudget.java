package dev.makeroom.core.model;

import java.util.Map;
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
        return selects(pod.namespace(), pod.labels())
                && (disruptedPods.isEmpty() || !disruptedPods.contains(pod.name()));
    }

    /**
     * Whether the budget selects pods of {@code podNamespace} labelled {@code labels} (an empty selector
     * selects none): what {@link #covers} asks of a pod before whether it is already being disrupted,
     * and all that can be asked of a pod that is gone (an eviction in the past).
     */
    public boolean selects(String podNamespace, Map<String, String> labels) {
        return namespace.equals(podNamespace) && !selector.isEmpty() && selector.matches(labels);
    }

    /**
     * The violations of this budget when {@code spent} of the pods it covers are evicted: the evictions
     * beyond what it allows (the objective's first term; the search adds it up one victim at a time).
     */
    public long violationsAt(long spent) {
        return violationsAt(spent, disruptionsAllowed);
    }

    /** Whether one more eviction, after {@code spentBefore} of the pods it covers, is beyond what it allows. */
    public boolean violatedBy(long spentBefore) {
        return violatedBy(spentBefore, disruptionsAllowed);
    }

    // The rule itself, once, on plain numbers: the search keeps budgets as arrays of allowances and counts.

    /** The evictions beyond {@code allowed} when {@code spent} of a budget's pods are evicted. */
    public static long violationsAt(long spent, long allowed) {
        return Math.max(0, spent - allowed);
    }

    /** Whether one more eviction, after {@code spentBefore}, is beyond {@code allowed}: it adds one violation. */
    public static boolean violatedBy(long spentBefore, long allowed) {
        return spentBefore >= allowed;
    }

    /** The evictions {@code allowed} still lets happen after {@code spent}, 0 once spent beyond it. */
    public static long leftAt(long spent, long allowed) {
        return Math.max(0, allowed - spent);
    }

    /** The most evictions of a budget's pods that cost at most {@code violations} violations. */
    public static long mostWith(long allowed, long violations) {
        return allowed + violations;
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
