package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.score.AvoidList;

/** The source of cluster snapshots. Every request reads one snapshot and keeps it to the end. */
public interface ClusterView extends AutoCloseable {

    ClusterSnapshot snapshot();

    /** Whether the view is complete enough to decide on (a live view: every informer synced). */
    boolean ready();

    /** Nodes pods should not return to (recent kubelet evictions); none for an offline view. */
    default AvoidList avoidList() {
        return AvoidList.NONE;
    }

    /** Stops watching, where there is anything to stop. */
    @Override
    default void close() {
    }
}
