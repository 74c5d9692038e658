package dev.makeroom.core.rounds.consolidate;

import dev.makeroom.core.rounds.PolicySettings;

import java.time.Duration;
import java.util.Map;

/**
 * The consolidate policy's settings: a node whose every resource named in {@code belowPercent} is under
 * its percent of allocatable is emptied when each of its pods provably lands on another node that stays
 * at or under every {@code ceilingPercent} with it; at most {@code nodesAtOnce} nodes drain at a time, a
 * drain not done within {@code drainWithin} is abandoned, and an emptied node stays tainted for
 * {@code keepEmptyFor} (the cluster autoscaler's scale-down-unneeded-time by default) before it is
 * released. With {@code moveWholeGangs} a node holding members of a gang may be emptied by moving the
 * whole gang (every running member, wherever it runs, each landing proven, all evicted in one round);
 * without, such a node is left as it is. Its defaults are {@link ConsolidatePolicy#read}'s.
 */
public record ConsolidateSettings(boolean enabled, Map<String, Integer> belowPercent,
                                  Map<String, Integer> ceilingPercent, Duration drainWithin, int nodesAtOnce,
                                  Duration keepEmptyFor, boolean moveWholeGangs) implements PolicySettings {

    /** Gangs kept in place. */
    public ConsolidateSettings(boolean enabled, Map<String, Integer> belowPercent, Map<String, Integer> ceilingPercent,
                               Duration drainWithin, int nodesAtOnce, Duration keepEmptyFor) {
        this(enabled, belowPercent, ceilingPercent, drainWithin, nodesAtOnce, keepEmptyFor, false);
    }

    public ConsolidateSettings {
        belowPercent = Map.copyOf(belowPercent);
        ceilingPercent = Map.copyOf(ceilingPercent);
    }

    @Override
    public ConsolidateSettings off() {
        return new ConsolidateSettings(false, belowPercent, ceilingPercent, drainWithin, nodesAtOnce, keepEmptyFor,
                moveWholeGangs);
    }
}
