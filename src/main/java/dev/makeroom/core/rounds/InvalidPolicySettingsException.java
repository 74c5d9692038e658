package dev.makeroom.core.rounds;

/** A section of the policies document that cannot be used, with the key at fault named. */
public final class InvalidPolicySettingsException extends RuntimeException {
    public InvalidPolicySettingsException(String message) {
        super(message);
    }
}
