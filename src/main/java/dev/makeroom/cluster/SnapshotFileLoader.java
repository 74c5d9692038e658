package dev.makeroom.cluster;

import dev.makeroom.mapping.ReadFailures;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.scheduling.v1alpha2.PodGroup;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Reads Kubernetes objects from a file as {@code kubectl get -o yaml|json} writes them: YAML or
 * JSON, one object, several YAML documents, or a {@code kind: List}. Parsed with fabric8's own
 * model, so real cluster dumps load as they are.
 */
public final class SnapshotFileLoader {

    private final KubernetesSerialization serialization = new KubernetesSerialization();

    public List<HasMetadata> load(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new SnapshotLoadException("snapshot file " + file + " does not exist or is not a file");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return load(in, file.toString());
        } catch (IOException e) {
            throw new SnapshotLoadException("cannot read snapshot file " + file + ": " + e.getMessage(), e);
        }
    }

    public List<HasMetadata> load(InputStream in, String source) {
        Object parsed;
        try {
            parsed = serialization.unmarshal(in);
        } catch (RuntimeException e) {
            String at = ReadFailures.path(e, "");
            throw new SnapshotLoadException("cannot parse " + source + " as Kubernetes objects"
                    + (at.isEmpty() ? "" : " at " + (at.startsWith(".") ? at.substring(1) : at)) + ": "
                    + ReadFailures.rootMessage(e), e);
        }
        List<HasMetadata> objects = new ArrayList<>();
        flatten(parsed, objects);
        return objects;
    }

    private void flatten(Object parsed, List<HasMetadata> out) {
        if (parsed instanceof PodGroup typed) { // the Workload API's, read as the other kinds' PodGroups are
            out.add(serialization.convertValue(typed, GenericKubernetesResource.class));
        } else if (parsed instanceof KubernetesList list) {
            list.getItems().forEach(item -> flatten(item, out));
        } else if (parsed instanceof HasMetadata object) {
            out.add(object);
        } else if (parsed instanceof Collection<?> many) {
            many.forEach(item -> flatten(item, out));
        }
    }
}
