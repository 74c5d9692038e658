package dev.makeroom.core.queue;

/** A queue's {@code preemption.policy}. */
public enum QueuePolicy {
    /** No limit on where the queue's pods look for victims. */
    DEFAULT,
    /** Pods in this subtree take victims only from inside it (one-way: outsiders may still take from it). */
    FENCE,
    /** The pods of this subtree are never victims (save a pinned DaemonSet pod's last resort). */
    DISABLED
}
