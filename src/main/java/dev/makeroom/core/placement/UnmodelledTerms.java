package dev.makeroom.core.placement;

import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;

import java.util.ArrayList;
import java.util.List;

/**
 * The one home of the rule "an anti-affinity term that chooses its namespaces by their labels makes
 * the pod's placement unknown": makeroom does not watch namespaces' labels, so it cannot tell which
 * pods such a term selects. It applies to the pod's own terms and to an existing pod's term that could
 * select the pod. The placement engine answers UNKNOWN for it, preemption keeps the scheduler's own
 * victims, and the rescheduler never moves such a pod.
 */
public final class UnmodelledTerms {

    private UnmodelledTerms() {
    }

    /**
     * Each such term, in words: the pod's own first, then those of {@code podsWithAntiAffinity} (the
     * bound pods with required anti-affinity) that could select it. Empty when there is none.
     */
    public static List<String> of(PodInfo pod, List<PodInfo> podsWithAntiAffinity) {
        List<String> found = new ArrayList<>();
        for (PodAffinityTerm term : pod.antiAffinity()) {
            if (term.namespacesByLabels()) {
                found.add("pod anti-affinity choosing namespaces by their labels");
            }
        }
        for (PodInfo existing : podsWithAntiAffinity) {
            if (existing.uid().equals(pod.uid())) {
                continue; // a pod the view already shows bound does not keep itself away
            }
            for (PodAffinityTerm term : existing.antiAffinity()) {
                if (choosesByLabelsAndCouldSelect(term, pod)) {
                    found.add("pod anti-affinity of " + existing.ref() + " choosing namespaces by their labels");
                }
            }
        }
        return found;
    }

    /** Whether {@code term}, another pod's, is one of those: its namespaces chosen by labels, its selector matching {@code pod}. */
    public static boolean choosesByLabelsAndCouldSelect(PodAffinityTerm term, PodInfo pod) {
        return term.namespacesByLabels() && term.selector().matches(pod.labels());
    }
}
