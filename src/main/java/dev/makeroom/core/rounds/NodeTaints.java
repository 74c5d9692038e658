package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Taint;

/**
 * Where the consolidate policy marks the nodes it empties: the cluster adapter writes the node's
 * {@code spec.taints}, which the scheduler reads (so no replacement lands back there) and every
 * replica's view sees (so a new leader carries the drain on).
 */
public interface NodeTaints {

    /** Adds {@code taint} to the node (replacing one of its key); false when it could not, and then nothing is evicted. */
    boolean taint(String node, Taint taint);

    /** Removes the node's taints of {@code key}; false when it could not (the next round tries again). */
    boolean untaint(String node, String key);

    /** Tells a waiting pod that {@code node} is back in service for it ({@code message}). */
    default void yielded(PodRef pod, String node, String message) {
    }
}
