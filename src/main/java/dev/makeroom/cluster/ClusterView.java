package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.score.AvoidList;

import java.util.Map;
import java.util.function.Consumer;

/** The source of cluster snapshots. Every request reads one snapshot and keeps it to the end. */
public interface ClusterView extends AutoCloseable {

    ClusterSnapshot snapshot();

    /** Whether the view is complete enough to decide on (a live view: every informer synced). */
    boolean ready();

    /** Nodes pods should not return to (recent kubelet evictions); none for an offline view. */
    default AvoidList avoidList() {
        return AvoidList.NONE;
    }

    /**
     * Calls {@code listener} with the data of makeroom's own ConfigMap now and whenever it changes
     * (empty when there is none); a view without one never calls it.
     */
    default void onConfigData(Consumer<Map<String, String>> listener) {
    }

    /** Stops watching, where there is anything to stop. */
    @Override
    default void close() {
    }
}
