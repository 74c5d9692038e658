package dev.makeroom.mapping;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** How logs and reports name a Kubernetes object: {@code namespace/name}, or the name alone for cluster-scoped ones. */
public final class ObjectNames {

    private ObjectNames() {
    }

    public static String of(HasMetadata o) {
        if (o.getMetadata() == null || o.getMetadata().getName() == null) {
            return "(unnamed)";
        }
        return o.getMetadata().getNamespace() == null ? o.getMetadata().getName()
                : o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }
}
