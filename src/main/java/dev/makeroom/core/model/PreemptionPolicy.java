package dev.makeroom.core.model;

/** The pod's {@code spec.preemptionPolicy}. */
public enum PreemptionPolicy {
    PREEMPT_LOWER_PRIORITY, NEVER
}
