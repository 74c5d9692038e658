package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** One informer notification, queued by the O(1) handler for the single applier thread. */
record ClusterEvent(Kind kind, boolean deleted, HasMetadata object) {

    /** The kinds of objects the live view watches. */
    enum Kind {
        NODE, POD, PDB, PRIORITY_CLASS, NAMESPACE, CONFIG_MAP
    }
}
