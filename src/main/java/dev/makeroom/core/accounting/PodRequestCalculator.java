package dev.makeroom.core.accounting;

import dev.makeroom.core.model.Resources;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A pod's effective request, computed exactly as the kube-scheduler's NodeInfo does: the larger of
 * (app containers + sidecars) and (each plain init container + the sidecars started before it),
 * with pod-level requests in force for the resources they name, plus the pod overhead.
 */
public final class PodRequestCalculator {

    private PodRequestCalculator() {
    }

    public static Resources effectiveRequests(List<Resources> containers, List<ContainerRequests> initContainers,
                                              Resources overhead) {
        return containersRequest(containers, initContainers).plus(overhead == null ? Resources.NONE : overhead);
    }

    /** What the containers ask for together, overhead aside. */
    public static Resources containersRequest(List<Resources> containers, List<ContainerRequests> initContainers) {
        Resources running = Resources.NONE;
        for (Resources c : containers) {
            running = running.plus(c);
        }
        Resources sidecarsSoFar = Resources.NONE;
        Resources initPeak = Resources.NONE;
        for (ContainerRequests init : initContainers) {
            Resources whileThisRuns;
            if (init.restartable()) {
                running = running.plus(init.requests());
                sidecarsSoFar = sidecarsSoFar.plus(init.requests());
                whileThisRuns = sidecarsSoFar;
            } else {
                whileThisRuns = init.requests().plus(sidecarsSoFar);
            }
            initPeak = initPeak.max(whileThisRuns);
        }
        return running.max(initPeak);
    }

    /**
     * The containers' request with the pod-level requests in force ({@code spec.resources.requests}):
     * for cpu, memory and hugepages the pod's own amount replaces the containers' sum; other resources
     * stay the containers'.
     */
    public static Resources withPodLevel(Resources containers, Resources podLevel) {
        if (podLevel.isEmpty()) {
            return containers;
        }
        Map<String, Long> merged = new HashMap<>(containers.toMap());
        for (int i = 0; i < podLevel.size(); i++) {
            String name = podLevel.name(i);
            if (Resources.CPU.equals(name) || Resources.MEMORY.equals(name) || name.startsWith("hugepages-")) {
                merged.put(name, podLevel.value(i));
            }
        }
        return Resources.of(merged);
    }
}
