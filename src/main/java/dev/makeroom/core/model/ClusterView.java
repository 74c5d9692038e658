package dev.makeroom.core.model;

/**
 * The source of cluster snapshots, a port the cluster adapter implements (a live view of the API, or
 * a snapshot file). Every request reads one snapshot and keeps it to the end. What else a view learns
 * from the API is offered beside it, by name, in the adapter: makeroom's ConfigMap feed, and the
 * recent kubelet evictions as an {@code AvoidList}.
 */
public interface ClusterView extends AutoCloseable {

    ClusterSnapshot snapshot();

    /** Whether the view is complete enough to decide on (a live view: every informer synced). */
    boolean ready();

    /** Stops watching, where there is anything to stop. */
    @Override
    default void close() {
    }
}
