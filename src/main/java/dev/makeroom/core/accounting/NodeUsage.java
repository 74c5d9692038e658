package dev.makeroom.core.accounting;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

import java.util.HashMap;
import java.util.Map;

/**
 * What is taken on a node from the point of view of one pending pod: every bound pod (terminating
 * ones too: they hold their resources until gone) and the pods nominated to the node whose priority
 * is at least the pending pod's. The pod count is kept under {@link Resources#PODS}.
 */
public final class NodeUsage {

    private NodeUsage() {
    }

    public static Resources requestedFor(NodeInfo node, PodInfo pending) {
        Map<String, Long> sum = new HashMap<>();
        for (PodInfo pod : node.pods()) {
            if (!pod.uid().equals(pending.uid())) {
                add(sum, pod);
            }
        }
        for (PodInfo nominated : node.nominatedPods()) {
            if (!nominated.uid().equals(pending.uid()) && nominated.priority() >= pending.priority()) {
                add(sum, nominated);
            }
        }
        return Resources.of(sum);
    }

    /** Everything bound to the node, as the node's own accounting shows it. */
    public static Resources requested(NodeInfo node) {
        Map<String, Long> sum = new HashMap<>();
        node.pods().forEach(pod -> add(sum, pod));
        return Resources.of(sum);
    }

    private static void add(Map<String, Long> sum, PodInfo pod) {
        Resources r = pod.requests();
        for (int i = 0; i < r.size(); i++) {
            sum.merge(r.name(i), r.value(i), Long::sum);
        }
        sum.merge(Resources.PODS, 1L, Long::sum);
    }
}
