package dev.makeroom.core.filter;

import dev.makeroom.core.accounting.FitCheck;
import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.model.fast.TableFit;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.fast.NodeTable;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.fast.RequestedNodes;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.queue.Queue;
import dev.makeroom.core.queue.QueueLimits;
import dev.makeroom.core.queue.QueueTree;
import dev.makeroom.core.queue.QueueUsage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Passes the nodes whose free allocatable holds the pod's requests. A node that fails stays a
 * preemption candidate ({@code FailedNodes}); the reason uses the kube-scheduler's words.
 */
public final class FilterPolicy {

    public static final String UNKNOWN_NODE = "unknown node";

    /** Without queues, with reservations as they hold now. */
    public FilterVerdict filter(ClusterSnapshot snapshot, PodInfo pod, List<String> nodeNames) {
        return filter(snapshot, pod, nodeNames, null, Instant.now());
    }

    /**
     * As above, with the queues' usage (null: no queues): a pod whose queue, or an ancestor, would
     * go over its max fails on every node as unresolvable, since no preemption changes that. A node
     * whose freed room makeroom holds for another pending pod ({@link Reservation}, as it holds at
     * {@code now}) is unresolvable for pods of priority at most that pod's: preempting there would take
     * the room it was made for.
     */
    public FilterVerdict filter(ClusterSnapshot snapshot, PodInfo pod, List<String> nodeNames, QueueUsage queues,
                                Instant now) {
        return filter(snapshot, pod, RequestedNodes.resolve(snapshot.table(), nodeNames), queues, now);
    }

    /** As above, for nodes whose rows in the snapshot's table the caller already found. */
    public FilterVerdict filter(ClusterSnapshot snapshot, PodInfo pod, RequestedNodes requested, QueueUsage queues,
                                Instant now) {
        NodeTable table = snapshot.table();
        RequestedNodes nodes = requested.against(table);
        String overMax = overQueueMax(snapshot, pod, queues);
        if (overMax != null) {
            Map<String, String> unresolvable = new LinkedHashMap<>(nodes.size() * 4 / 3 + 1);
            nodes.names().forEach(n -> unresolvable.put(n, overMax));
            return new FilterVerdict(new ArrayList<>(), new LinkedHashMap<>(), unresolvable);
        }
        List<String> passed = new ArrayList<>(nodes.size());
        Map<String, String> failed = new LinkedHashMap<>(nodes.size() * 4 / 3 + 1);
        Map<String, String> reserved = reservedAgainst(snapshot, pod, now);
        Map<Long, String> reasons = new HashMap<>(); // a request sees only a few distinct shortfalls
        String home = NodeUsage.homeOf(snapshot, pod);
        TableFit fit = new TableFit(table, pod.requests(), home);
        for (int i = 0; i < nodes.size(); i++) {
            String name = nodes.name(i);
            int index = nodes.row(i);
            if (index < 0) {
                failed.put(name, UNKNOWN_NODE);
                continue;
            }
            if (!reserved.isEmpty() && reserved.containsKey(name)) {
                continue;
            }
            long shortMask;
            if (fit.needsNode(index)) {
                NodeInfo node = table.node(index);
                shortMask = FitCheck.shortMask(node.allocatable(), NodeUsage.requestedFor(node, pod, home), pod.requests());
            } else {
                shortMask = fit.shortMask(index);
            }
            if (shortMask == 0) {
                passed.add(name);
            } else {
                String reason = reasons.get(shortMask);
                if (reason == null) {
                    reasons.put(shortMask, reason = FitCheck.describe(shortMask, pod.requests()));
                }
                failed.put(name, reason);
            }
        }
        if (reserved.isEmpty()) {
            return new FilterVerdict(passed, failed, Map.of());
        }
        Map<String, String> unresolvable = new LinkedHashMap<>();
        nodes.names().forEach(n -> {
            if (reserved.containsKey(n)) {
                unresolvable.put(n, reserved.get(n));
            }
        });
        return new FilterVerdict(passed, failed, unresolvable);
    }

    /** The nodes whose reservation keeps {@code pod} off at {@code now}, with what the filter says of them. */
    private static Map<String, String> reservedAgainst(ClusterSnapshot snapshot, PodInfo pod, Instant now) {
        Map<String, NodeInfo> holding = snapshot.nodesWithReservations();
        if (holding.isEmpty()) {
            return Map.of();
        }
        Map<String, String> kept = new HashMap<>();
        holding.forEach((name, node) -> {
            Reservation reservation = node.admission().reservation();
            if (reservation.keepsOff(pod, snapshot, now)) {
                kept.put(name, reservation.describe());
            }
        });
        return kept;
    }

    /** Why {@code pod}'s queue, or an ancestor, would go over its max (null: it would not, or no queues). */
    public static String overQueueMax(ClusterSnapshot snapshot, PodInfo pod, QueueUsage queues) {
        if (queues == null || pod.priority() >= QueueTree.SYSTEM_CRITICAL_PRIORITY) {
            return null;
        }
        Queue leaf = queues.tree().leafOf(pod, snapshot.namespaceAnnotations());
        return leaf == null ? null : QueueLimits.exceeded(queues, leaf, pod);
    }


}
