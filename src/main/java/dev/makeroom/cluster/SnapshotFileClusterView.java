package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.mapping.SnapshotMapper;
import dev.makeroom.core.model.ClusterSnapshot;

import java.nio.file.Path;

/** The offline view: a file of Kubernetes objects, loaded once at start-up. */
public final class SnapshotFileClusterView implements ClusterView {

    private final ClusterSnapshot snapshot;

    public SnapshotFileClusterView(Path file) {
        this.snapshot = SnapshotMapper.toSnapshot(new SnapshotFileLoader().load(file));
    }

    @Override
    public ClusterSnapshot snapshot() {
        return snapshot;
    }

    @Override
    public boolean ready() {
        return true;
    }
}
