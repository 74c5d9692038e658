package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.mapping.SnapshotMapper;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.KubeVersion;

import java.nio.file.Path;

/**
 * The offline view: a file of Kubernetes objects, loaded once at start-up, answered as for the
 * version given (null: the newest tested).
 */
public final class SnapshotFileClusterView implements ClusterView {

    private final ClusterSnapshot snapshot;

    public SnapshotFileClusterView(Path file) {
        this(file, null);
    }

    public SnapshotFileClusterView(Path file, KubeVersion version) {
        ClusterSnapshot loaded = SnapshotMapper.toSnapshot(new SnapshotFileLoader().load(file));
        this.snapshot = version == null ? loaded : loaded.change().version(version).build();
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
