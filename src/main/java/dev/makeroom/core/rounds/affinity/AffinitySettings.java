package dev.makeroom.core.rounds.affinity;

import dev.makeroom.core.rounds.PolicySettings;

/**
 * The affinity policy's settings: pods whose node their required node affinity or anti-affinity now
 * refuses move; with a {@code preferredMinGain} above 0, so does a pod the scheduler's preference score
 * (preferred node and pod affinity and anti-affinity, and other pods' preferences for it) puts at least
 * that much higher on another node.
 */
public record AffinitySettings(boolean enabled, int preferredMinGain) implements PolicySettings {

    @Override
    public AffinitySettings off() {
        return new AffinitySettings(false, preferredMinGain);
    }
}
