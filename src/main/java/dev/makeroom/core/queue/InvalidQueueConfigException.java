package dev.makeroom.core.queue;

/** A queue configuration that cannot be used; the message says where and why. */
public final class InvalidQueueConfigException extends RuntimeException {

    public InvalidQueueConfigException(String message) {
        super(message);
    }
}
