package dev.makeroom.cluster;

/** A snapshot file that cannot be read; the message says which and why. */
public class SnapshotLoadException extends RuntimeException {
    public SnapshotLoadException(String message) {
        super(message);
    }

    public SnapshotLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
