package dev.makeroom.core.rounds.taints;

import dev.makeroom.core.rounds.PolicySettings;

import java.util.Set;

/**
 * The taints policy's settings: pods on a node with a NoSchedule taint they do not tolerate (placed
 * before the taint came) move; with {@code keys}, only for taints of those keys.
 */
public record TaintsSettings(boolean enabled, Set<String> keys) implements PolicySettings {

    public TaintsSettings {
        keys = Set.copyOf(keys);
    }

    @Override
    public TaintsSettings off() {
        return new TaintsSettings(false, keys);
    }
}
