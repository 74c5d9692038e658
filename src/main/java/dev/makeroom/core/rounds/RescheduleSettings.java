package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodInfo;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * What the rescheduler may do: the guards every policy keeps, then one settings record per policy
 * ({@link RoundPolicy}). Guards: {@code limits}, the most evictions per round, node, namespace,
 * controller and hour; {@code aggressiveness}, how much of the disruption budgets the rounds may spend;
 * {@code scope}, which pods any policy may move; {@code allowLocalStorage}, whether pods with emptyDir or
 * hostPath volumes may move (their data is lost); {@code refusalBackoffMax}, the longest a pod the
 * Eviction API refused stays out of the plans (the backoff doubles per refusal up to it).
 */
public record RescheduleSettings(MoveLimits limits, Aggressiveness aggressiveness, Scope scope,
                                 boolean allowLocalStorage, Duration refusalBackoffMax, Defragment defragment,
                                 Affinity affinity, Taints taints, Spread spread, Duplicates duplicates,
                                 Rebalance rebalance, Consolidate consolidate) {

    /** The longest a pod the Eviction API refused is held back, where the document does not say. */
    public static final Duration REFUSAL_BACKOFF_MAX = Duration.ofHours(1);

    /**
     * The affinity policy: pods whose node their required node affinity or anti-affinity now refuses
     * move; with a {@code preferredMinGain} above 0, so does a pod the scheduler's preference score
     * (preferred node and pod affinity and anti-affinity, and other pods' preferences for it) puts at
     * least that much higher on another node.
     */
    public record Affinity(boolean enabled, int preferredMinGain) {
        public static final Affinity OFF = new Affinity(false, 0);
    }

    /**
     * The spread policy: pods whose topology spread constraints their domain now breaks move (with
     * {@code scheduleAnyway}, their ScheduleAnyway constraints count too).
     */
    public record Spread(boolean enabled, boolean scheduleAnyway) {
        public static final Spread OFF = new Spread(false, false);
    }

    /** The duplicates policy: a controller's pods piled on one node spread out. */
    public record Duplicates(boolean enabled) {
        public static final Duplicates OFF = new Duplicates(false);
    }

    /**
     * The consolidate policy: a node whose every resource named in {@code belowPercent} is under its
     * percent of allocatable is emptied when each of its pods provably lands on another node that stays
     * at or under every {@code ceilingPercent} with it; at most {@code nodesAtOnce} nodes drain at a time,
     * a drain not done within {@code drainWithin} is abandoned, and an emptied node stays tainted for
     * {@code keepEmptyFor} (the cluster autoscaler's scale-down-unneeded-time by default) before it is
     * released. With {@code moveWholeGangs} a node holding members of a gang may be emptied by moving
     * the whole gang (every running member, wherever it runs, each landing proven, all evicted in one
     * round); without, such a node is left as it is.
     */
    public record Consolidate(boolean enabled, Map<String, Integer> belowPercent, Map<String, Integer> ceilingPercent,
                              Duration drainWithin, int nodesAtOnce, Duration keepEmptyFor, boolean moveWholeGangs) {

        /** Gangs kept in place. */
        public Consolidate(boolean enabled, Map<String, Integer> belowPercent, Map<String, Integer> ceilingPercent,
                           Duration drainWithin, int nodesAtOnce, Duration keepEmptyFor) {
            this(enabled, belowPercent, ceilingPercent, drainWithin, nodesAtOnce, keepEmptyFor, false);
        }

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

    /**
     * Defragmentation: pods unschedulable for at least {@code after}, of a scheduler in
     * {@code schedulerNames}, get room made by moving at most {@code maxMoves} pods off one node; the
     * node is then held for the pod for {@code reserveFor}. {@code searchBudget}: how long the search
     * for one pending pod may take before it answers with what it has verified.
     */
    public record Defragment(boolean enabled, Duration after, Set<String> schedulerNames, Duration reserveFor,
                             int maxMoves, Duration searchBudget) {

        /** Where the policies document says nothing (the one place these values are written). */
        public static final Defragment DEFAULTS = new Defragment(true, Duration.ofSeconds(30),
                Set.of(PodInfo.DEFAULT_SCHEDULER), Duration.ofMinutes(2), 3, Duration.ofSeconds(1));

        /** The defaults, switched off. */
        public static final Defragment OFF = new Defragment(false, DEFAULTS.after, DEFAULTS.schedulerNames,
                DEFAULTS.reserveFor, DEFAULTS.maxMoves, DEFAULTS.searchBudget);

        public Defragment {
            schedulerNames = Set.copyOf(schedulerNames);
        }
    }

    /**
     * The rebalance policy, in percent of allocatable per resource: a node is above when any named
     * resource exceeds its {@code high}, below when every named resource is under its {@code low}.
     */
    public record Rebalance(boolean enabled, Map<String, Integer> lowPercent, Map<String, Integer> highPercent) {
        public static final Rebalance OFF = new Rebalance(false, Map.of(), Map.of());

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
