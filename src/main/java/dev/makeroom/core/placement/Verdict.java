package dev.makeroom.core.placement;

/** What one filter says of a pod on a node, in the scheduler's terms. */
public enum Verdict {
    FITS,
    /** The scheduler's {@code Unschedulable}: removing pods from the node could resolve it (a preemption candidate). */
    UNSCHEDULABLE,
    /** The scheduler's {@code UnschedulableAndUnresolvable}: no eviction on the node changes it. */
    UNRESOLVABLE,
    /** makeroom cannot tell (a rule it does not model): never read as "fits". */
    UNKNOWN
}
