package dev.makeroom.core.filter;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.queue.Queue;
import dev.makeroom.core.queue.QueueLimits;
import dev.makeroom.core.queue.QueueOverMax;
import dev.makeroom.core.queue.QueueTree;
import dev.makeroom.core.queue.QueueUsage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * makeroom's own filter rules, and only those: a pod whose queue would go over its max, and room
 * held on a node for a pod to come ({@link Reservation}: a pending pod, or the replacement of a pod the
 * rescheduler moved there). Held room keeps other pods of priority at most the claimant's off the node
 * (unresolvable), and steers the claimant there: its other nodes fail, but only while a node holding its
 * room is among those asked, so the steering can never leave it nowhere to go. Every other node passes.
 *
 * <p>Why no resource check: the scheduler calls an extender's filter only with the nodes its own
 * filters passed, from a cache that already counts pods it has just placed. makeroom's view of the
 * same nodes can only be behind it (a deletion not yet seen), so a second NodeResourcesFit here could
 * only refuse wrongly. And from Kubernetes 1.32 on such a refusal sticks: the scheduler marks the pod
 * as rejected by "Extender", for which no cluster event is a queueing hint, so a pod refused by a
 * view a few milliseconds old waits for the five-minute flush. For the same reason a node makeroom
 * does not know yet passes: no rule of makeroom's concerns it.
 *
 * <p>The common pod meets neither rule: that is decided once per call (no reservation in the
 * snapshot, no queue over its max), and then the names asked come back as they are. Nodes are known
 * by name alone here: the filter never needs a node's row in the snapshot's table, so the names a
 * request brings are not looked up in it.
 */
public final class FilterPolicy {

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
        Optional<QueueOverMax> overMax = overQueueMax(snapshot, pod, queues);
        if (overMax.isPresent()) {
            String why = overMax.get().describe();
            Map<String, String> unresolvable = new LinkedHashMap<>(nodeNames.size() * 4 / 3 + 1);
            nodeNames.forEach(n -> unresolvable.put(n, why));
            return new FilterVerdict(new ArrayList<>(), new LinkedHashMap<>(), unresolvable);
        }
        if (snapshot.nodesWithReservations().isEmpty()) { // the common pod: every node asked passes
            return FilterVerdict.allPassed(nodeNames);
        }
        // one look at each holding node: whom its room keeps off, and whether it holds room for this pod
        Map<String, String> reserved = new HashMap<>();
        Set<String> held = new TreeSet<>();
        snapshot.nodesWithReservations().forEach((name, node) -> {
            List<Reservation> holding = Reservation.holdingOn(node, snapshot, now);
            Reservation keeping = Reservation.keepingOff(holding, pod, snapshot, now);
            if (keeping != null) {
                reserved.put(name, keeping.describe());
            }
            if (Reservation.anyClaimedBy(holding, pod)) {
                held.add(name);
            }
        });
        Set<String> steeredTo = asked(held, nodeNames);
        if (reserved.isEmpty() && steeredTo.isEmpty()) {
            return FilterVerdict.allPassed(nodeNames);
        }
        List<String> passed = new ArrayList<>(nodeNames.size());
        Map<String, String> failed = new LinkedHashMap<>();
        Map<String, String> unresolvable = new LinkedHashMap<>();
        String elsewhere = steeredTo.isEmpty() ? null : "makeroom holds room for this pod on " + String.join(", ", steeredTo);
        for (String name : nodeNames) {
            String reason = reserved.get(name);
            if (reason != null) {
                unresolvable.put(name, reason);
            } else if (elsewhere != null && !steeredTo.contains(name)) {
                failed.put(name, elsewhere);
            } else {
                passed.add(name);
            }
        }
        return new FilterVerdict(passed, failed, unresolvable);
    }

    /**
     * Of the nodes holding room for the pod, those asked about. The pod is steered only to these: the
     * scheduler's own filters passed them, so it lands there; when none is asked (it no longer fits,
     * or the scheduler sampled other nodes), the pod goes where the scheduler puts it.
     */
    private static Set<String> asked(Set<String> held, List<String> nodeNames) {
        if (held.isEmpty()) {
            return held;
        }
        Set<String> asked = new TreeSet<>();
        for (String name : nodeNames) {
            if (held.contains(name)) {
                asked.add(name);
            }
        }
        return asked;
    }

    /** The queue, {@code pod}'s or an ancestor, it would take over its max; none without queues or when none would go over. */
    public static Optional<QueueOverMax> overQueueMax(ClusterSnapshot snapshot, PodInfo pod, QueueUsage queues) {
        if (queues == null || pod.priority() >= QueueTree.SYSTEM_CRITICAL_PRIORITY) {
            return Optional.empty();
        }
        Queue leaf = queues.tree().leafOf(pod, snapshot.namespaceAnnotations());
        return leaf == null ? Optional.empty() : QueueLimits.exceeded(queues, leaf, pod);
    }
}
