package dev.makeroom.core.rounds.duplicates;

import dev.makeroom.core.rounds.PolicySettings;

/** The duplicates policy's settings: a controller's pods piled on one node spread out. */
public record DuplicatesSettings(boolean enabled) implements PolicySettings {

    @Override
    public DuplicatesSettings off() {
        return new DuplicatesSettings(false);
    }
}
