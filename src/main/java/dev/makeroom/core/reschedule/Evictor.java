package dev.makeroom.core.reschedule;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;

/** Where planned moves are enacted: the cluster adapter evicts through the Eviction API. */
public interface Evictor {

    /** Evicts the move's pod (never deletes it) and reports what the API said. */
    EvictionOutcome evict(PodInfo pod, Move move);

    /** Removes makeroom's expired entries from the node's avoid list (where there is an API to write to). */
    default void expireAvoidances(String node) {
    }

    /**
     * Holds the node's room for a pending pod where every replica's filter sees it, before anything is
     * evicted for it; false when it could not (then nothing is evicted for it).
     */
    default boolean reserve(String node, Reservation reservation) {
        return false;
    }

    /** Ends the node's reservation for the pod with {@code uid} (it bound, is gone, or the time is up). */
    default void release(String node, String uid) {
    }

    /** Tells the pending pod what is done for it (an Event where there is an API). */
    default void announce(PodInfo pending, RoomPlan room) {
    }

    /** What one eviction came to. */
    record EvictionOutcome(Result result, String detail) {
        public enum Result {
            EVICTED,
            /** 429: a PodDisruptionBudget does not allow it now. */
            BLOCKED_BY_BUDGET,
            /** 404: the pod is gone already. */
            GONE,
            /** Anything else; tried again in a later round if still planned. */
            FAILED
        }
    }
}
