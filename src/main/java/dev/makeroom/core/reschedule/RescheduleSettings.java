package dev.makeroom.core.reschedule;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * What the planner may do. {@code rebalance}: thresholds in percent of allocatable per resource;
 * a node is above when any named resource exceeds its {@code high}, below when every named resource
 * is under its {@code low}. {@code allowLocalStorage}: pods with emptyDir or hostPath volumes may move
 * (their data is lost). {@code preferredMinGain}: with {@code affinity}, a pod with preferences of its own
 * also moves to a node the scheduler's preference score (preferred node and pod affinity and
 * anti-affinity, and other pods' preferences for it) puts at least this much higher (0: never for that
 * reason). {@code defragment}:
 * moving pods to make room for pending pods that fit nowhere. {@code aggressiveness}: how much of the
 * disruption budgets the rounds may spend. {@code refusalBackoffMax}: the longest a pod the Eviction API
 * refused stays out of the plans (the backoff doubles per refusal up to it). {@code taints}: pods on nodes
 * with a NoSchedule taint they do not tolerate move. {@code spread}: pods whose topology spread
 * constraints their domain now breaks move ({@code spreadScheduleAnyway}: their ScheduleAnyway ones too).
 * {@code duplicates}: a controller's pods piled on one node spread out. {@code scope}: which pods any
 * policy may move. {@code consolidate}: the least used nodes are emptied for the cluster autoscaler.
 */
public record RescheduleSettings(Rebalance rebalance, boolean affinity, MoveLimits limits,
                                 boolean allowLocalStorage, int preferredMinGain, Defragment defragment,
                                 Aggressiveness aggressiveness, Duration refusalBackoffMax, Taints taints,
                                 boolean spread, boolean duplicates, Scope scope, boolean spreadScheduleAnyway,
                                 Consolidate consolidate) {

    /** The longest a pod the Eviction API refused is held back, where the document does not say. */
    public static final Duration REFUSAL_BACKOFF_MAX = Duration.ofHours(1);

    /** Without the taints, spread and duplicates policies, every pod in scope. */
    public RescheduleSettings(Rebalance rebalance, boolean affinity, MoveLimits limits, boolean allowLocalStorage,
                              int preferredMinGain, Defragment defragment, Aggressiveness aggressiveness,
                              Duration refusalBackoffMax) {
        this(rebalance, affinity, limits, allowLocalStorage, preferredMinGain, defragment, aggressiveness,
                refusalBackoffMax, Taints.OFF, false, false, Scope.ALL, false, Consolidate.OFF);
    }

    /** These settings with {@code scope}. */
    public RescheduleSettings withScope(Scope scope) {
        return new RescheduleSettings(rebalance, affinity, limits, allowLocalStorage, preferredMinGain, defragment,
                aggressiveness, refusalBackoffMax, taints, spread, duplicates, scope, spreadScheduleAnyway,
                consolidate);
    }

    /** These settings with the spread policy also acting on ScheduleAnyway constraints, or not. */
    public RescheduleSettings withSpreadScheduleAnyway(boolean scheduleAnyway) {
        return new RescheduleSettings(rebalance, affinity, limits, allowLocalStorage, preferredMinGain, defragment,
                aggressiveness, refusalBackoffMax, taints, spread, duplicates, scope, scheduleAnyway,
                consolidate);
    }

    /** These settings with the taints, spread and duplicates policies as given. */
    public RescheduleSettings withPolicies(Taints taints, boolean spread, boolean duplicates) {
        return new RescheduleSettings(rebalance, affinity, limits, allowLocalStorage, preferredMinGain, defragment,
                aggressiveness, refusalBackoffMax, taints, spread, duplicates, scope, spreadScheduleAnyway,
                consolidate);
    }

    /** These settings with the consolidate policy as given. */
    public RescheduleSettings withConsolidate(Consolidate consolidate) {
        return new RescheduleSettings(rebalance, affinity, limits, allowLocalStorage, preferredMinGain, defragment,
                aggressiveness, refusalBackoffMax, taints, spread, duplicates, scope, spreadScheduleAnyway,
                consolidate);
    }

    /**
     * The consolidate policy: a node whose every resource named in {@code belowPercent} is under its
     * percent of allocatable is emptied when each of its pods provably lands on another node that stays
     * at or under every {@code ceilingPercent} with it; at most {@code nodesAtOnce} nodes drain at a time,
     * a drain not done within {@code drainWithin} is abandoned, and an emptied node stays tainted for
     * {@code keepEmptyFor} (the cluster autoscaler's scale-down-unneeded-time by default) before it is
     * released.
     */
    public record Consolidate(boolean enabled, Map<String, Integer> belowPercent, Map<String, Integer> ceilingPercent,
                              Duration drainWithin, int nodesAtOnce, Duration keepEmptyFor) {

        public static final Consolidate OFF = new Consolidate(false, Map.of(), Map.of(), Duration.ofMinutes(15), 1,
                Duration.ofMinutes(10));

        public Consolidate {
            belowPercent = Map.copyOf(belowPercent);
            ceilingPercent = Map.copyOf(ceilingPercent);
        }
    }

    /**
     * The taints policy: pods on a node with a NoSchedule taint they do not tolerate (placed before the
     * taint came) move; with {@code keys}, only for taints of those keys.
     */
    public record Taints(boolean enabled, Set<String> keys) {
        public static final Taints OFF = new Taints(false, Set.of());

        public Taints {
            keys = Set.copyOf(keys);
        }
    }

    /** With refused pods held back an hour at most. */
    public RescheduleSettings(Rebalance rebalance, boolean affinity, MoveLimits limits, boolean allowLocalStorage,
                              int preferredMinGain, Defragment defragment, Aggressiveness aggressiveness) {
        this(rebalance, affinity, limits, allowLocalStorage, preferredMinGain, defragment, aggressiveness,
                REFUSAL_BACKOFF_MAX);
    }

    /** At the moderate aggressiveness (budgets may be spent whole). */
    public RescheduleSettings(Rebalance rebalance, boolean affinity, MoveLimits limits, boolean allowLocalStorage,
                              int preferredMinGain, Defragment defragment) {
        this(rebalance, affinity, limits, allowLocalStorage, preferredMinGain, defragment, Aggressiveness.MODERATE);
    }

    /** Without defragmentation. */
    public RescheduleSettings(Rebalance rebalance, boolean affinity, MoveLimits limits, boolean allowLocalStorage,
                              int preferredMinGain) {
        this(rebalance, affinity, limits, allowLocalStorage, preferredMinGain, Defragment.OFF);
    }

    /** Without moves for preferred node affinity ({@code preferredMinGain} 0) and without defragmentation. */
    public RescheduleSettings(Rebalance rebalance, boolean affinity, MoveLimits limits, boolean allowLocalStorage) {
        this(rebalance, affinity, limits, allowLocalStorage, 0);
    }

    /**
     * Defragmentation: pods unschedulable for at least {@code after}, of a scheduler in
     * {@code schedulerNames}, get room made by moving at most {@code maxMoves} pods off one node; the
     * node is then held for the pod for {@code reserveFor}. {@code searchBudget}: how long the search
     * for one pending pod may take before it answers with what it has verified.
     */
    public record Defragment(boolean enabled, Duration after, Set<String> schedulerNames, Duration reserveFor,
                             int maxMoves, Duration searchBudget) {

        public static final Defragment OFF = new Defragment(false, Duration.ofSeconds(30),
                Set.of("default-scheduler"), Duration.ofMinutes(2), 3, Duration.ofSeconds(1));

        public Defragment {
            schedulerNames = Set.copyOf(schedulerNames);
        }
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
