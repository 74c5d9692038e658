package dev.makeroom.core.preemption;

import dev.makeroom.core.model.PodRef;

/** Where a preemption decision is told to the pod it was made for (the cluster adapter: an Event). */
public interface DecisionEvents {

    /** Whether anything is told at all (off on a snapshot file, or when switched off). */
    boolean enabled();

    /** Tells {@code pod} of its decision; never blocks the request, and may drop what it cannot say now. */
    void record(PodRef pod, String message);
}
