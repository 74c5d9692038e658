package dev.makeroom.core.rounds.rebalance;

import dev.makeroom.core.rounds.PolicySettings;

import java.util.Map;

/**
 * The rebalance policy's settings, in percent of allocatable per resource: a node is above when any
 * named resource exceeds its {@code high}, below when every named resource is under its {@code low}.
 */
public record RebalanceSettings(boolean enabled, Map<String, Integer> lowPercent, Map<String, Integer> highPercent)
        implements PolicySettings {

    public RebalanceSettings {
        lowPercent = Map.copyOf(lowPercent);
        highPercent = Map.copyOf(highPercent);
    }

    @Override
    public RebalanceSettings off() {
        return new RebalanceSettings(false, lowPercent, highPercent);
    }
}
