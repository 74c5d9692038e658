package dev.makeroom.core.queue;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Each queue's usage in one snapshot: the requests of its running pods (bound, not terminating),
 * with {@code pods} counting them, parents rolling up their children.
 *
 * <p>Usage is summed per node first and those partial sums are kept: a later snapshot shares
 * every unchanged {@link NodeInfo} with this one, so {@link #next} only re-reads changed nodes
 * (the queue tree and the namespaces must be the same objects, or it starts over).
 */
public final class QueueUsage {

    private final ClusterSnapshot snapshot;
    private final QueueTree tree;
    private final Map<String, Map<String, String>> namespaces;
    private final Map<NodeInfo, Map<Queue, Map<String, Long>>> byNode;
    private final Map<Queue, Map<String, Long>> usage = new HashMap<>();

    private QueueUsage(ClusterSnapshot snapshot, QueueTree tree, QueueUsage previous) {
        this.snapshot = snapshot;
        this.tree = tree;
        this.namespaces = snapshot.namespaceAnnotations();
        boolean reuse = previous != null && previous.tree == tree && previous.namespaces == namespaces;
        this.byNode = new IdentityHashMap<>();
        for (NodeInfo node : snapshot.nodes()) {
            Map<Queue, Map<String, Long>> partial = reuse ? previous.byNode.get(node) : null;
            if (partial == null) {
                partial = partialOf(node);
            }
            byNode.put(node, partial);
            partial.forEach((leaf, amounts) -> {
                for (Queue q = leaf; q != null; q = q.parent()) {
                    Map<String, Long> total = usage.computeIfAbsent(q, k -> new HashMap<>());
                    amounts.forEach((r, v) -> total.merge(r, v, Long::sum));
                }
            });
        }
    }

    public static QueueUsage of(ClusterSnapshot snapshot, QueueTree tree) {
        return new QueueUsage(snapshot, tree, null);
    }

    /** The usage of {@code snapshot}, reusing this one's sums for the nodes it shares. */
    public QueueUsage next(ClusterSnapshot snapshot, QueueTree newTree) {
        return new QueueUsage(snapshot, newTree, this);
    }

    private Map<Queue, Map<String, Long>> partialOf(NodeInfo node) {
        Map<Queue, Map<String, Long>> partial = new HashMap<>();
        for (PodInfo pod : node.pods()) {
            if (pod.terminating()) {
                continue; // on its way out: counting it would keep its queue above guarantee a while longer
            }
            Queue leaf = tree.leafOf(pod, namespaces);
            if (leaf == null) {
                continue;
            }
            Map<String, Long> amounts = partial.computeIfAbsent(leaf, k -> new HashMap<>());
            Resources r = pod.requests();
            for (int i = 0; i < r.size(); i++) {
                amounts.merge(r.name(i), r.value(i), Long::sum);
            }
            amounts.merge(Resources.PODS, 1L, Long::sum);
        }
        return partial;
    }

    /** Whether this is the usage of exactly this snapshot under exactly this tree. */
    public boolean isFor(ClusterSnapshot s, QueueTree t) {
        return snapshot == s && tree == t;
    }

    public QueueTree tree() {
        return tree;
    }

    /** What the queue uses of {@code resource}, in base units. */
    public long of(Queue queue, String resource) {
        Map<String, Long> u = usage.get(queue);
        return u == null ? 0 : u.getOrDefault(resource, 0L);
    }

    public Map<String, Long> of(Queue queue) {
        Map<String, Long> u = usage.get(queue);
        return u == null ? Map.of() : Map.copyOf(u);
    }

    /** How much of {@code resource} a pod adds to its queue's usage. */
    public static long amount(PodInfo pod, String resource) {
        return Resources.PODS.equals(resource) ? 1 : pod.requests().get(resource);
    }
}
