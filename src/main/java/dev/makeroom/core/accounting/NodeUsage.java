package dev.makeroom.core.accounting;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

/**
 * What is taken on a node from the point of view of one pending pod: every bound pod (terminating
 * ones too: they hold their resources until gone) and the pods nominated to the node whose priority
 * is at least the pending pod's. The pod count is kept under {@link Resources#PODS}.
 */
public final class NodeUsage {

    private static final Resources ONE_POD = Resources.of(Resources.PODS, 1);

    private NodeUsage() {
    }

    /**
     * Where the view already has the pending pod bound, or null. A pod the scheduler asks about is
     * pending for it, but a slightly newer view may show it bound; it must not count against itself.
     */
    public static String homeOf(ClusterSnapshot snapshot, PodInfo pending) {
        PodInfo known = snapshot.pod(pending.uid());
        return known == null ? null : known.nodeName();
    }

    public static Resources requestedFor(NodeInfo node, PodInfo pending, String pendingHome) {
        Resources requested = node.requested();
        if (node.name().equals(pendingHome)) {
            for (PodInfo pod : node.pods()) {
                if (pod.uid().equals(pending.uid())) {
                    requested = requested.minus(pod.requests()).minus(ONE_POD);
                }
            }
        }
        for (PodInfo nominated : node.nominatedPods()) {
            if (!nominated.uid().equals(pending.uid()) && nominated.priority() >= pending.priority()) {
                requested = requested.plus(nominated.requests()).plus(ONE_POD);
            }
        }
        return requested;
    }
}
