package dev.makeroom.bench;

import io.fabric8.kubernetes.api.model.Pod;

/** Which preemptor a preempt benchmark sends to a cluster of {@link FullNodes}, and what its answers must be. */
public enum PreemptBody {
    /** 500m: fits nowhere, fits on most candidates once two fillers go. */
    PREEMPTS("critical-job", 500),
    /**
     * Memory only, over candidates below their pod limit: fits on every one as it is, so nothing is
     * evicted (the case the earlier preempt figures measured).
     */
    FITS_ANYWAY("fits-anyway", 0);

    private final String name;
    private final long cpuMillis;

    PreemptBody(String name, long cpuMillis) {
        this.name = name;
        this.cpuMillis = cpuMillis;
    }

    Pod preemptor() {
        return FullNodes.preemptor(name, cpuMillis + "m");
    }

    /** Whether node {@code n} of a {@link FullNodes} cluster is among the candidates this body is sent with. */
    boolean sentWith(int n) {
        return this == PREEMPTS || !FullNodes.atPodLimit(n);
    }

    long cpuMillis() {
        return cpuMillis;
    }

    /** Fails the run when the answers are not what the body is named for. */
    void check(PreemptOutcomes outcomes) {
        boolean expected = this == PREEMPTS ? outcomes.mostlyPreempt() : outcomes.noneEvicted();
        if (!expected) {
            throw new IllegalStateException(this + " body answered " + outcomes + ": not the case it measures");
        }
    }
}
