package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;

import java.time.Instant;
import java.util.List;

/**
 * Where the room found for a gang's other waiting members is held for them once victims are named for
 * one member (the cluster adapter: the node's reservation annotation, which every replica's filter
 * reads), until each binds or the hold's time ({@code makeroom.preemption.gang-hold}) is up.
 */
public interface GangRooms {

    /** Nothing held: off ({@code makeroom.preemption.gang-hold} 0), or a snapshot file with no API. */
    GangRooms NONE = (snapshot, rooms, now) -> {
    };

    /**
     * Holds each room for its member from {@code now}, and no longer where {@code snapshot} shows the
     * member held before (one hold per member: the scheduler may ask about a gang again and find its
     * members other rooms); never blocks the request, and may drop what it cannot write now.
     */
    void hold(ClusterSnapshot snapshot, List<GangStart.Room> rooms, Instant now);
}
