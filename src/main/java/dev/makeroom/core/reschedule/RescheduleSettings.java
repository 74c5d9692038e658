package dev.makeroom.core.reschedule;

import java.util.Map;

/**
 * What the planner may do. {@code rebalance}: thresholds in percent of allocatable per resource;
 * a node is above when any named resource exceeds its {@code high}, below when every named resource
 * is under its {@code low}. {@code allowLocalStorage}: pods with emptyDir or hostPath volumes may move
 * (their data is lost). {@code preferredMinGain}: with {@code affinity}, a pod also moves to a node its
 * preferred node affinity scores at least this much higher (0: never for that reason).
 */
public record RescheduleSettings(Rebalance rebalance, boolean affinity, MoveLimits limits,
                                 boolean allowLocalStorage, int preferredMinGain) {

    /** Without moves for preferred node affinity ({@code preferredMinGain} 0). */
    public RescheduleSettings(Rebalance rebalance, boolean affinity, MoveLimits limits, boolean allowLocalStorage) {
        this(rebalance, affinity, limits, allowLocalStorage, 0);
    }

    public record Rebalance(boolean enabled, Map<String, Integer> lowPercent, Map<String, Integer> highPercent) {
        public Rebalance {
            lowPercent = Map.copyOf(lowPercent);
            highPercent = Map.copyOf(highPercent);
        }
    }

    /**
     * The most evictions per round, per node per round, per namespace and per controller in any hour
     * (the proposal's "one disruption per hour across the pods of a Service"), and cluster-wide per hour.
     */
    public record MoveLimits(int perRound, int perNodePerRound, int perNamespacePerHour, int perControllerPerHour,
                             int clusterPerHour) {
    }
}
