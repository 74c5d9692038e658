package dev.makeroom.core.accounting;

import dev.makeroom.core.model.Resources;

import java.util.List;

/**
 * A pod's effective request, computed exactly as the kube-scheduler's NodeInfo does: the larger of
 * (app containers + sidecars) and (each plain init container + the sidecars started before it),
 * plus the pod overhead.
 */
public final class PodRequestCalculator {

    private PodRequestCalculator() {
    }

    public static Resources effectiveRequests(List<Resources> containers, List<ContainerRequests> initContainers,
                                              Resources overhead) {
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
        return running.max(initPeak).plus(overhead == null ? Resources.NONE : overhead);
    }
}
