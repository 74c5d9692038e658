package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodInfo;

/**
 * Where planned moves are enacted: the cluster adapter evicts through the Eviction API. Room for a
 * pending pod is held through the other port, {@link RoomHold}.
 */
public interface Evictor {

    /** Evicts the move's pod (never deletes it) and reports what the API said. */
    EvictionOutcome evict(PodInfo pod, Move move);

    /**
     * Whether the API would evict the pod now, asked without evicting it (a dry run): before the first
     * of moves that must all happen or none (a gang moving whole). An adapter that cannot ask answers
     * {@code EVICTED}; each eviction still asks for itself.
     */
    default EvictionOutcome wouldEvict(PodInfo pod) {
        return new EvictionOutcome(EvictionOutcome.Result.EVICTED, "not asked beforehand");
    }

    /** Removes makeroom's expired entries from the node's avoid list, which {@link #evict} writes. */
    void expireAvoidances(String node);

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
