package dev.makeroom.cluster;

/** Whether this replica is the one that acts (the rescheduler's rounds), and who is. */
@FunctionalInterface
public interface Leadership {

    /** A process alone (a snapshot file): it always acts. */
    Leadership SOLE = () -> true;

    boolean leading();

    /** The acting replica's name, where an election knows it (null otherwise). */
    default String leader() {
        return null;
    }
}
