package dev.makeroom.support;

import dev.makeroom.cluster.SnapshotFileLoader;
import dev.makeroom.mapping.SnapshotMapper;
import dev.makeroom.core.model.ClusterSnapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The real kube-scheduler captures, kept in src/test/resources/fixtures. */
public final class Fixtures {

    public static final Path ROOT = Path.of("src/test/resources/fixtures/kube-scheduler-v1.26");

    private Fixtures() {
    }

    public static Path file(String folder, String name) {
        return ROOT.resolve(folder).resolve(name);
    }

    public static String read(String folder, String name) {
        try {
            return Files.readString(file(folder, name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static ClusterSnapshot cluster(String folder, String name) {
        return SnapshotMapper.toSnapshot(new SnapshotFileLoader().load(file(folder, name)));
    }
}
