package dev.makeroom.core.preemption;

import dev.makeroom.core.model.PodRef;

import java.util.Map;

/**
 * Where room makeroom held idle is given back ({@link HeldRoomRelease}): the cluster adapter removes the
 * node's consolidation taint and tells the pod and the node, off the request's thread.
 */
public interface HeldRooms {

    /** Nothing to give back through: a snapshot file has no API. */
    HeldRooms NONE = release -> {
    };

    /** Puts the node back into service for the pod; never blocks the request, and may drop what it cannot write now. */
    void release(HeldRoomRelease release);

    /**
     * The nodes given back lately, by node, and for whom: two pods asked about at once must not both be
     * given the same node while the view still shows it kept.
     */
    default Map<String, PodRef> givenBack() {
        return Map.of();
    }
}
