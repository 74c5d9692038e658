package dev.makeroom.debug;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.queue.Queue;
import dev.makeroom.observability.DurationText;
import dev.makeroom.core.queue.QueueTree;
import dev.makeroom.core.queue.QueueUsage;
import dev.makeroom.queueconfig.QueueConfigState;
import dev.makeroom.queueconfig.QueueConfigService;
import dev.makeroom.queueconfig.Queues;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.TreeMap;

/** GET /debug/queues[/{name}] — the queue tree in force with usage against guarantees and limits. */
final class QueueDebug {

    private final ClusterView view;
    private final QueueConfigService config;
    private final Queues queues;

    QueueDebug(ClusterView view, QueueConfigService config, Queues queues) {
        this.view = view;
        this.config = config;
        this.queues = queues;
    }

    ServerResponse tree(ServerRequest request) {
        QueueConfigState state = config.state();
        QueueTree tree = state.tree();
        ClusterSnapshot snapshot = view.snapshot();
        QueueUsage usage = queues.usage(snapshot);
        Waiting waiting = Waiting.of(snapshot, tree);
        return ok(new DebugDtos.QueueConfig(tree.enabled(), state.source(), String.valueOf(state.loadedAt()),
                state.warnings(), state.error(), state.errorAt() == null ? null : state.errorAt().toString(),
                tree.defaultQueue() == null ? null : tree.defaultQueue().fullName(),
                tree.enabled() ? queue(tree.root(), usage, waiting, true) : null));
    }

    ServerResponse one(ServerRequest request) {
        String name = request.pathVariable("name");
        QueueTree tree = config.tree();
        Queue queue = tree.queue(name);
        if (queue == null) {
            return ServerResponse.status(HttpStatus.NOT_FOUND).contentType(MediaType.APPLICATION_JSON)
                    .body(new DebugDtos.Error(tree.enabled() ? "no queue " + name + " (use its full name, root.…)"
                            : "no queues are configured"));
        }
        ClusterSnapshot snapshot = view.snapshot();
        return ok(queue(queue, queues.usage(snapshot), Waiting.of(snapshot, tree), true));
    }

    private static DebugDtos.QueueNode queue(Queue q, QueueUsage usage, Waiting waiting, boolean withChildren) {
        Map<String, Long> used = new TreeMap<>(usage.of(q));
        List<DebugDtos.QueueNode> children = withChildren
                ? q.children().stream().map(c -> queue(c, usage, waiting, true)).toList() : List.of();
        return new DebugDtos.QueueNode(q.fullName(), q.policy().name().toLowerCase(java.util.Locale.ROOT),
                q.isLeaf() ? DurationText.of(q.delay()) : null, new TreeMap<>(q.guaranteed()), new TreeMap<>(q.max()), used,
                belowGuarantee(q, used), waiting.pending.getOrDefault(q.fullName(), 0),
                waiting.preempting.getOrDefault(q.fullName(), 0), children);
    }

    /** The pending pods of each queue, and those nominated to a node (preempting), counted up the tree. */
    private record Waiting(Map<String, Integer> pending, Map<String, Integer> preempting) {

        static Waiting of(ClusterSnapshot snapshot, QueueTree tree) {
            Waiting waiting = new Waiting(new HashMap<>(), new HashMap<>());
            if (!tree.enabled()) {
                return waiting;
            }
            Set<PodRef> nominated = new HashSet<>();
            snapshot.nodes().forEach(node -> node.nominatedPods().forEach(p -> nominated.add(p.ref())));
            for (PodInfo pod : snapshot.pods()) {
                Queue leaf = pod.isAssigned() ? null : tree.leafOf(pod, snapshot.namespaceAnnotations());
                for (Queue q = leaf; q != null; q = q.parent()) {
                    waiting.pending.merge(q.fullName(), 1, Integer::sum);
                    if (nominated.contains(pod.ref())) {
                        waiting.preempting.merge(q.fullName(), 1, Integer::sum);
                    }
                }
            }
            return waiting;
        }
    }

    /** The guaranteed resources the queue uses less of than promised: what it may still take back. */
    private static List<String> belowGuarantee(Queue q, Map<String, Long> used) {
        return q.guaranteed().entrySet().stream().filter(g -> used.getOrDefault(g.getKey(), 0L) < g.getValue())
                .map(Map.Entry::getKey).sorted().toList();
    }


    private static ServerResponse ok(Object body) {
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(body);
    }
}
