package dev.makeroom.core.room;

/**
 * Rings of candidates, each reached only when the rings inside cannot make room. A set from an outer
 * ring is a last resort: a node whose set comes from the ordinary ring is always preferred.
 */
public enum Tier {
    /** Pods nothing protects. */
    ORDINARY,
    /** With queues: pods that started their application (a driver), whose eviction takes the whole application with it. */
    ORIGINATORS,
    /**
     * Pods that opted out of preemption (annotation, PriorityClass, disabled queue), reached only by
     * a DaemonSet pod pinned to this node, which has nowhere else to go (queue law 1).
     */
    OPTED_OUT_LAST_RESORT,
    /** Pods no ring reaches: their protection keeps them whatever the pending pod needs. */
    OUT_OF_REACH;

    /** A ring reached only when the ordinary one cannot make room. */
    public boolean lastResort() {
        return this == ORIGINATORS || this == OPTED_OUT_LAST_RESORT;
    }

    public boolean reachable() {
        return this != OUT_OF_REACH;
    }
}
