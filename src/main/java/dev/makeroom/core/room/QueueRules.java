package dev.makeroom.core.room;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.queue.Queue;
import dev.makeroom.core.queue.QueueTree;
import dev.makeroom.core.queue.QueueUsage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The queue laws (README, Queues) for one pending pod P, over one snapshot's queue usage.
 *
 * <p><b>Design.</b> Moving capacity from a victim V to P changes the usage of exactly the queues
 * between each leaf and their lowest common ancestor: P's side gains, V's side loses, the shared
 * ancestors see no change. So the guarantee laws are read on those two paths only:
 * <ul>
 * <li>law 4 (P's side): some queue there guarantees a resource P asks for, and every such queue is
 *     below its guarantee in at least one resource P asks for;</li>
 * <li>law 5 (V's side): no queue there is below its guarantee in any resource it lists;</li>
 * <li>law 2 (V's side, whole sets): for each queue there and each guaranteed resource, the victims
 *     in its subtree together take at most its usage above the guarantee. These are the
 *     {@link QueueFloors} the victim search must respect; a pod that breaks one on its own is no
 *     candidate at all.</li>
 * </ul>
 * Law 6 lets equal priorities meet across queues; inside P's own leaf plain priority preemption
 * applies (strictly lower), as it does for pods outside every queue. Law 3 holds everywhere, law 7
 * is P's nearest fence, the delay gates every other queue. Pods at or above
 * {@code system-cluster-critical} are not bound by any of it: rules are then {@link #inactive()}.
 * The per-leaf verdicts depend only on the two paths, so they are computed once per victim leaf.
 */
public final class QueueRules {

    private static final QueueRules OFF = new QueueRules(null, Map.of(), null, null, Duration.ZERO);

    private final QueueUsage usage;
    private final Map<String, Map<String, String>> namespaces;
    private final PodInfo pending;
    private final Queue home;
    private final Duration pendingFor;
    private final Map<Queue, Protection> byLeaf = new HashMap<>();
    private final Map<Queue, Map<String, Long>> slackByQueue = new HashMap<>();

    private QueueRules(QueueUsage usage, Map<String, Map<String, String>> namespaces, PodInfo pending, Queue home,
                       Duration pendingFor) {
        this.usage = usage;
        this.namespaces = namespaces;
        this.pending = pending;
        this.home = home;
        this.pendingFor = pendingFor;
    }

    public static QueueRules off() {
        return OFF;
    }

    /**
     * The rules for {@code pending}, which has waited {@code pendingFor}; inactive when there is no
     * queue configuration, the pod maps to no queue, or it is system-critical.
     */
    public static QueueRules forPending(QueueUsage usage, PodInfo pending, Map<String, Map<String, String>> namespaces,
                                        Duration pendingFor) {
        if (usage == null || !usage.tree().enabled() || pending.priority() >= QueueTree.SYSTEM_CRITICAL_PRIORITY) {
            return OFF;
        }
        Queue home = usage.tree().leafOf(pending, namespaces);
        return home == null ? OFF : new QueueRules(usage, namespaces, pending, home, pendingFor);
    }

    public boolean active() {
        return home != null;
    }

    public boolean inactive() {
        return home == null;
    }

    /** P's leaf queue; null when the rules are inactive. */
    public Queue home() {
        return home;
    }

    /** Whether P may not take from other queues yet only because its delay has not passed. */
    public boolean delayPending() {
        return active() && pendingFor.compareTo(home.delay()) < 0 && crossQueueProtection(null) == Protection.NONE;
    }

    public String delayDetail() {
        return "pending " + pendingFor.toSeconds() + "s of queue " + home.fullName() + "'s preemption delay "
                + home.delay().toSeconds() + "s";
    }

    /**
     * What the queue laws say of a running pod against P: its protection ({@link Protection#NONE}: they
     * let it go), or nothing when only the plain rules apply to it (same leaf as P, or outside every
     * queue). {@code leaf} is the pod's leaf.
     */
    Optional<Protection> protectionOf(PodInfo running, Queue leaf) {
        if (pending.applicationId() != null && pending.applicationId().equals(running.applicationId())) {
            return said(Protection.SAME_APPLICATION);
        }
        if (leaf == null || leaf == home) {
            return Optional.empty();
        }
        if (running.priority() > pending.priority()) {
            return said(Protection.PRIORITY_HIGHER);
        }
        Protection p = byLeaf.computeIfAbsent(leaf, this::leafProtection);
        if (p != Protection.NONE) {
            return said(p);
        }
        for (Map.Entry<String, Long> slack : slackOf(leaf).entrySet()) {
            if (QueueUsage.amount(running, slack.getKey()) > slack.getValue()) {
                return said(Protection.VICTIM_QUEUE_WOULD_GO_BELOW_GUARANTEE);
            }
        }
        return said(Protection.NONE);
    }

    /** Each answer made once: this is asked of every pod of every candidate node. */
    private static final Map<Protection, Optional<Protection>> SAID = new EnumMap<>(Protection.class);

    static {
        for (Protection p : Protection.values()) {
            SAID.put(p, Optional.of(p));
        }
    }

    private static Optional<Protection> said(Protection p) {
        return SAID.get(p);
    }

    /** The victim's leaf queue, or null when it belongs to none. */
    Queue leafOf(PodInfo running) {
        return usage.tree().leafOf(running, namespaces);
    }

    private Protection leafProtection(Queue leaf) {
        Protection p = crossQueueProtection(leaf);
        if (p != Protection.NONE) {
            return p;
        }
        if (pendingFor.compareTo(home.delay()) < 0) {
            return Protection.PREEMPTION_DELAY;
        }
        Queue lca = Queue.lowestCommonAncestor(home, leaf);
        for (Queue q : leaf.pathUpTo(lca)) {
            if (!aboveGuarantee(q)) {
                return Protection.VICTIM_QUEUE_NOT_ABOVE_GUARANTEE;
            }
        }
        return Protection.NONE;
    }

    /**
     * The laws on P's side (fence, law 4) for taking from {@code leaf}; with a null leaf, whether
     * P may take from any other queue at all. {@link Protection#NONE} when they allow it.
     */
    private Protection crossQueueProtection(Queue leaf) {
        Queue fence = home.fence();
        if (leaf != null && fence != null && !fence.contains(leaf)) {
            return Protection.OUTSIDE_FENCE;
        }
        if (leaf == null && fence == home) {
            return Protection.OUTSIDE_FENCE; // a fenced leaf takes from no other queue
        }
        Queue lca = leaf == null ? null : Queue.lowestCommonAncestor(home, leaf);
        return preemptorBelowGuarantee(home.pathUpTo(lca == null ? home.parent() : lca))
                ? Protection.NONE : Protection.PREEMPTOR_QUEUE_NOT_BELOW_GUARANTEE;
    }

    private boolean preemptorBelowGuarantee(List<Queue> path) {
        boolean guaranteed = false;
        for (Queue q : path) {
            boolean listsAsked = false;
            boolean below = false;
            for (Map.Entry<String, Long> g : q.guaranteed().entrySet()) {
                if (QueueUsage.amount(pending, g.getKey()) > 0) {
                    listsAsked = true;
                    below |= usage.of(q, g.getKey()) < g.getValue();
                }
            }
            if (listsAsked && !below) {
                return false;
            }
            guaranteed |= listsAsked;
        }
        return guaranteed;
    }

    /** Not below the guarantee in any listed resource, and above it in at least one. */
    private boolean aboveGuarantee(Queue q) {
        boolean above = q.guaranteed().isEmpty();
        for (Map.Entry<String, Long> g : q.guaranteed().entrySet()) {
            long used = usage.of(q, g.getKey());
            if (used < g.getValue()) {
                return false;
            }
            above |= used > g.getValue();
        }
        return above;
    }

    /**
     * Per guaranteed resource, the least slack (usage above guarantee) along the victim's side;
     * for a single pod that is the whole of law 2.
     */
    private Map<String, Long> slackOf(Queue leaf) {
        return slackByQueue.computeIfAbsent(leaf, l -> {
            Map<String, Long> least = new HashMap<>();
            for (Queue q : l.pathUpTo(Queue.lowestCommonAncestor(home, l))) {
                q.guaranteed().forEach((r, g) -> least.merge(r, usage.of(q, r) - g, Math::min));
            }
            return least;
        });
    }

    /** Law 2 over whole sets: one floor per (queue on a victim's side, guaranteed resource). */
    QueueFloors floors(List<PodInfo> candidates) {
        if (inactive()) {
            return QueueFloors.NONE;
        }
        Map<String, Integer> index = new LinkedHashMap<>();
        List<Long> slack = new ArrayList<>();
        int[][] of = new int[candidates.size()][];
        long[][] draw = new long[candidates.size()][];
        for (int i = 0; i < candidates.size(); i++) {
            PodInfo pod = candidates.get(i);
            Queue leaf = leafOf(pod);
            List<Integer> ks = new ArrayList<>();
            List<Long> amounts = new ArrayList<>();
            if (leaf != null && leaf != home) {
                for (Queue q : leaf.pathUpTo(Queue.lowestCommonAncestor(home, leaf))) {
                    for (Map.Entry<String, Long> g : q.guaranteed().entrySet()) {
                        long amount = QueueUsage.amount(pod, g.getKey());
                        if (amount <= 0) {
                            continue;
                        }
                        String key = q.fullName() + " " + g.getKey();
                        Integer k = index.get(key);
                        if (k == null) {
                            index.put(key, k = index.size());
                            slack.add(usage.of(q, g.getKey()) - g.getValue());
                        }
                        ks.add(k);
                        amounts.add(amount);
                    }
                }
            }
            of[i] = ks.stream().mapToInt(Integer::intValue).toArray();
            draw[i] = amounts.stream().mapToLong(Long::longValue).toArray();
        }
        return new QueueFloors(slack.stream().mapToLong(Long::longValue).toArray(), of, draw,
                index.keySet().toArray(String[]::new));
    }
}
