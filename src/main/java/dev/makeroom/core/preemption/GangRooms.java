package dev.makeroom.core.preemption;

import java.time.Instant;
import java.util.List;

/**
 * Where the room found for a gang's other waiting members is held for them once victims are named for
 * one member (the cluster adapter: the node's reservation annotation, which every replica's filter
 * reads), until each binds or the hold's time ({@code makeroom.preemption.gang-hold}) is up.
 */
public interface GangRooms {

    /** Nothing held: off ({@code makeroom.preemption.gang-hold} 0), or a snapshot file with no API. */
    GangRooms NONE = (rooms, now) -> {
    };

    /** Holds each room for its member from {@code now}; never blocks the request, and may drop what it cannot write now. */
    void hold(List<GangStart.Room> rooms, Instant now);
}
