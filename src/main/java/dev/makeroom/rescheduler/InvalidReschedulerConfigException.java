package dev.makeroom.rescheduler;

/** A rescheduler document that cannot be used, with the first problem named. */
public final class InvalidReschedulerConfigException extends RuntimeException {
    public InvalidReschedulerConfigException(String message) {
        super(message);
    }
}
