package dev.makeroom.core.queue;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

import java.util.HashMap;
import java.util.Map;

/**
 * What each queue waits for in one snapshot, beside what it uses ({@link QueueUsage}): the requests
 * of its pending pods (not yet bound, not being deleted), and of those the ones preemption has
 * nominated to a node ({@code preempting}: their victims are on their way out), with {@code pods}
 * counting them; parents roll up their children, as usage does.
 */
public final class QueueDemand {

    private final ClusterSnapshot snapshot;
    private final QueueTree tree;
    private final Map<Queue, Map<String, Long>> pending = new HashMap<>();
    private final Map<Queue, Map<String, Long>> preempting = new HashMap<>();

    private QueueDemand(ClusterSnapshot snapshot, QueueTree tree) {
        this.snapshot = snapshot;
        this.tree = tree;
        for (PodInfo pod : snapshot.pods()) {
            if (pod.isAssigned() || pod.terminating()) {
                continue;
            }
            Queue leaf = tree.leafOf(pod, snapshot.namespaceAnnotations());
            if (leaf == null) {
                continue;
            }
            boolean nominated = pod.nominatedNodeName() != null && !pod.nominatedNodeName().isEmpty();
            for (Queue q = leaf; q != null; q = q.parent()) {
                add(pending, q, pod);
                if (nominated) {
                    add(preempting, q, pod);
                }
            }
        }
    }

    public static QueueDemand of(ClusterSnapshot snapshot, QueueTree tree) {
        return new QueueDemand(snapshot, tree);
    }

    private static void add(Map<Queue, Map<String, Long>> sums, Queue q, PodInfo pod) {
        Map<String, Long> total = sums.computeIfAbsent(q, k -> new HashMap<>());
        Resources r = pod.requests();
        for (int i = 0; i < r.size(); i++) {
            total.merge(r.name(i), r.value(i), Long::sum);
        }
        total.merge(Resources.PODS, 1L, Long::sum);
    }

    /** Whether this is the demand of exactly this snapshot under exactly this tree. */
    public boolean isFor(ClusterSnapshot s, QueueTree t) {
        return snapshot == s && tree == t;
    }

    /** What the queue's pending pods request of {@code resource}, in base units. */
    public long pending(Queue queue, String resource) {
        return pending.getOrDefault(queue, Map.of()).getOrDefault(resource, 0L);
    }

    /** What its pending pods that preemption has nominated to a node request of {@code resource}. */
    public long preempting(Queue queue, String resource) {
        return preempting.getOrDefault(queue, Map.of()).getOrDefault(resource, 0L);
    }
}
