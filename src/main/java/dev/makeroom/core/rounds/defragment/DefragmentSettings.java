package dev.makeroom.core.rounds.defragment;

import dev.makeroom.core.rounds.PolicySettings;

import java.time.Duration;
import java.util.Set;

/**
 * Defragmentation's settings: pods unschedulable for at least {@code after}, of a scheduler in
 * {@code schedulerNames}, get room made by moving at most {@code maxMoves} pods off one node; the node
 * is then held for the pod for {@code reserveFor}. {@code searchBudget}: how long the search for one
 * pending pod may take before it answers with what it has verified. Its defaults are
 * {@link DefragmentPolicy#read}'s.
 */
public record DefragmentSettings(boolean enabled, Duration after, Set<String> schedulerNames, Duration reserveFor,
                                 int maxMoves, Duration searchBudget) implements PolicySettings {

    public DefragmentSettings {
        schedulerNames = Set.copyOf(schedulerNames);
    }

    @Override
    public DefragmentSettings off() {
        return new DefragmentSettings(false, after, schedulerNames, reserveFor, maxMoves, searchBudget);
    }
}
