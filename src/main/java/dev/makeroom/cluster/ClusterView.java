package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;

/** The source of cluster snapshots. Every request reads one snapshot and keeps it to the end. */
public interface ClusterView {

    ClusterSnapshot snapshot();

    /** Whether the view is complete enough to decide on (a live view: every informer synced). */
    boolean ready();
}
