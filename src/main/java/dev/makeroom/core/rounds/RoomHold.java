package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;

/**
 * Where room made for a pending pod is held and said: the cluster adapter writes the node's
 * reservation annotation, which every replica's filter reads, and an Event on the pod.
 */
public interface RoomHold {

    /**
     * Holds the node's room for a pending pod where every replica's filter sees it, before anything is
     * evicted for it; false when it could not (then nothing is evicted for it).
     */
    boolean reserve(String node, Reservation reservation);

    /** Ends the node's reservation for the pod with {@code uid} (it bound, is gone, or the time is up). */
    void release(String node, String uid);

    /** Tells the pending pod what is done for it. */
    void announce(PodInfo pending, RoomPlan room);

    /** Tells a moved pod's replacement where it landed against its move's plan ({@code message}). */
    default void landed(PodInfo replacement, String message) {
    }
}
