package dev.makeroom.core.rounds;

import java.util.Locale;

/** Why a pod a policy would move was not moved, for counting (the {@link Skip}'s reason says it in words). */
public enum SkipCategory {
    // what keeps a running pod in place whatever the policy: the MoveBlocker of the same name
    NO_CONTROLLER, DAEMON_SET, GANG_MEMBER, MIRROR, TERMINATING, OPTED_OUT, NOT_EVICTABLE, SYSTEM_CRITICAL, LOCAL_STORAGE,
    UNCHECKED_CONSTRAINTS,
    /** Outside the document's scope (namespaces, selectors, priority threshold, age, replicas). */
    OUT_OF_SCOPE,
    /** A rate limit (per round, node, namespace, controller or hour) does not allow it. */
    LIMIT,
    /** A PodDisruptionBudget covering the pod allows no more disruptions now (counting the round's moves). */
    BUDGET,
    /** The Eviction API refused the pod lately and its backoff has not run out. */
    BACKOFF,
    /** No other node takes it (or, for defragmentation, the pods that would free enough would not all land). */
    NO_LANDING,
    // defragmentation's pending pods not helped
    /** A node takes the pending pod as it is: the scheduler will place it. */
    FITS,
    /** Preemption places the pending pod: left to the scheduler. */
    PREEMPTION,
    /** Room is held for the pending pod already, or it is nominated to a node. */
    HELD,
    /** No node where moving at most the allowed number of pods frees enough. */
    NO_ROOM,
    /** The search ran out of time before it verified any set. */
    TIMED_OUT;

    /** A switch, not a lookup by name: a blocker added without its category does not compile. */
    static SkipCategory of(MoveBlocker blocker) {
        return switch (blocker) {
            case NO_CONTROLLER -> NO_CONTROLLER;
            case DAEMON_SET -> DAEMON_SET;
            case GANG_MEMBER -> GANG_MEMBER;
            case MIRROR -> MIRROR;
            case TERMINATING -> TERMINATING;
            case OPTED_OUT -> OPTED_OUT;
            case NOT_EVICTABLE -> NOT_EVICTABLE;
            case SYSTEM_CRITICAL -> SYSTEM_CRITICAL;
            case LOCAL_STORAGE -> LOCAL_STORAGE;
            case UNCHECKED_CONSTRAINTS -> UNCHECKED_CONSTRAINTS;
        };
    }

    /** As metrics label it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
