package dev.makeroom.cluster;

/**
 * One informer notification, queued by the O(1) handler for the single applier thread. The payload
 * is the object as fabric8 delivered it, or for pods its lean form ({@link LeanPod}), so that a
 * backlog during a first sync of many pods holds no full Pod objects.
 */
record ClusterEvent(Kind kind, boolean deleted, Object payload) {

    /** The kinds of objects the live view watches. */
    enum Kind {
        NODE, POD, PDB, PRIORITY_CLASS, NAMESPACE, CONFIG_MAP
    }
}
