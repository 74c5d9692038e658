package dev.makeroom.cluster;

/**
 * One informer notification, queued by the O(1) handler for the single applier thread. The payload
 * is the object as fabric8 delivered it, or for pods its lean form ({@link LeanPod}), so that a
 * backlog during a first sync of many pods holds no full Pod objects, and for a gang's group object the
 * minimum it states ({@link PodGroupMinimum}).
 */
record ClusterEvent(Kind kind, boolean deleted, Object payload) {

    /** The kinds of objects the live view watches, each with its metric label: the Kubernetes kind in lower case. */
    enum Kind {
        NODE("node"), POD("pod"), PDB("poddisruptionbudget"), PRIORITY_CLASS("priorityclass"), NAMESPACE("namespace"),
        CONFIG_MAP("configmap"), POD_GROUP("podgroup"),
        /** DRA's ({@code resource.k8s.io/v1}), watched where the server serves it. */
        RESOURCE_SLICE("resourceslice"), DEVICE_CLASS("deviceclass"), RESOURCE_CLAIM("resourceclaim");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }
    }
}
