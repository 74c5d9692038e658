package dev.makeroom.core.preemption;

/** Why a pod on a candidate node may not be a victim ({@link #NONE}: it may). */
public enum Protection {
    NONE,
    PRIORITY_NOT_LOWER,
    TERMINATING,
    MIRROR_POD,
    POD_OPTED_OUT,
    PRIORITY_CLASS_OPTED_OUT;

    /** Opted-out pods are a strong wish, not a guarantee: a pinned DaemonSet pod may still take them. */
    public boolean isOptOut() {
        return this == POD_OPTED_OUT || this == PRIORITY_CLASS_OPTED_OUT;
    }
}
