package dev.makeroom.core.rounds.spread;

import dev.makeroom.core.rounds.PolicySettings;

/**
 * The spread policy's settings: pods whose topology spread constraints their domain now breaks move
 * (with {@code scheduleAnyway}, their ScheduleAnyway constraints count too).
 */
public record SpreadSettings(boolean enabled, boolean scheduleAnyway) implements PolicySettings {

    @Override
    public SpreadSettings off() {
        return new SpreadSettings(false, scheduleAnyway);
    }
}
