package dev.makeroom.core.room;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodColumns;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.queue.Queue;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Who may be disturbed to make room for a pending pod, and why not (a {@link Protection};
 * {@link Protection#NONE}: it may). The one home of that rule, in two configurations:
 * <ul>
 *   <li><b>Preempting</b> ({@link #toPreempt}; README: How makeroom decides, and Queues when they are
 *       on): a running pod may be a victim when its priority is strictly lower, it is not terminating,
 *       not a mirror pod and has not opted out, on the pod or its PriorityClass ({@link #standing}).
 *       With queue rules the laws come first ({@link QueueRules}). A DaemonSet pod pinned to the node
 *       may take opted-out pods as a last resort ({@link Tier#OPTED_OUT_LAST_RESORT}).</li>
 *   <li><b>Moving</b> ({@link Movers#forPending}; the rescheduler's defragmentation): a running pod
 *       may be moved when nothing keeps it in place whatever the policy (the round's own rule: a
 *       {@code MoveBlocker}, which reads {@link #standing}, or the scope), its priority is at most the
 *       pending pod's, it is not of the pending pod's controller, not opted out of defragmentation, not
 *       moved already this round and not refused by the Eviction API lately. Whether it also lands is
 *       proven per set, by the caller.</li>
 * </ul>
 * {@link NodeProblem} asks it of every pod on a node, so both ways of making room pose one problem.
 */
public sealed interface Eligibility permits Eligibility.Preempting, Eligibility.Moving {

    /** What keeps {@code running} from being disturbed; {@link Protection#NONE} when nothing does. */
    Protection protectionOf(PodInfo running);

    /** As above, for {@code running} in {@code row} of its node's columns, which may answer without reading it. */
    default Protection protectionOf(PodColumns columns, int row, PodInfo running) {
        return protectionOf(running);
    }

    /** The ring {@code running} is taken in ({@link Tier#OUT_OF_REACH} when none). */
    default Tier tierOf(PodInfo running, Protection protection) {
        return protection == Protection.NONE ? Tier.ORDINARY : Tier.OUT_OF_REACH;
    }

    /** Preemption for {@code pending}, under {@code rules} ({@link QueueRules#off()} without queues), on no node in particular. */
    static Preempting toPreempt(PodInfo pending, ClusterSnapshot snapshot, QueueRules rules) {
        return new Preempting(pending, snapshot, rules, false, Set.of());
    }

    /**
     * What shields a pod whatever the pending pod and its queue: terminating, mirror pod, opted out
     * ({@link Protection#NONE}: only priority and the queues decide).
     */
    static Protection standing(PodInfo running, ClusterSnapshot snapshot) {
        return standing(PodColumns.flagsOf(running), running, snapshot);
    }

    /** {@link #standing} in words, for people asking why a pod is or is not a victim. */
    static String explainStanding(PodInfo running, ClusterSnapshot snapshot) {
        Protection protection = standing(running, snapshot);
        return switch (protection) {
            case NONE -> "preemptible by pods of priority above " + running.priority();
            case PRIORITY_CLASS_OPTED_OUT -> protection.describe() + " " + running.priorityClassName()
                    + " (a pinned DaemonSet pod may still take it)";
            default -> protection.describe() + (protection.isOptOut() ? " (a pinned DaemonSet pod may still take it)" : "");
        };
    }

    private static Protection standing(byte flags, PodInfo running, ClusterSnapshot snapshot) {
        if ((flags & PodColumns.TERMINATING) != 0) {
            return Protection.TERMINATING;
        }
        if ((flags & PodColumns.MIRROR) != 0) {
            return Protection.MIRROR_POD;
        }
        return optOut(flags, running, snapshot);
    }

    private static Protection optOut(byte flags, PodInfo running, ClusterSnapshot snapshot) {
        if ((flags & PodColumns.OPTED_OUT) != 0) {
            return Protection.POD_OPTED_OUT;
        }
        // asked first so that, read from columns, the pod itself is not (classOptsOut needs its class's name)
        if (snapshot.anyClassOptsOut() && snapshot.classOptsOut(running.priorityClassName())) {
            return Protection.PRIORITY_CLASS_OPTED_OUT;
        }
        return Protection.NONE;
    }

    /**
     * Preemption's configuration: {@code daemonSetHere} when {@code pending} is a DaemonSet pod pinned
     * to the node asked about, which may take opted-out pods when nothing else works; {@code keptWhole}
     * the uids of gang members a way of making room keeps running (see the engine's gang scenarios).
     */
    record Preempting(PodInfo pending, ClusterSnapshot snapshot, QueueRules rules, boolean daemonSetHere,
                      Set<String> keptWhole) implements Eligibility {

        /** The same rule on the node named {@code node}. */
        public Preempting on(String node) {
            return new Preempting(pending, snapshot, rules, pending.isDaemonSetPodFor(node), keptWhole);
        }

        /** The same rule, keeping the pods of {@code uids} (gang members) whatever else it would allow. */
        public Preempting keeping(Set<String> uids) {
            return new Preempting(pending, snapshot, rules, daemonSetHere, Set.copyOf(uids));
        }

        @Override
        public Protection protectionOf(PodInfo running) {
            if (!keptWhole.isEmpty() && keptWhole.contains(running.uid())) {
                return Protection.GANG_KEPT_WHOLE;
            }
            if (rules.inactive()) {
                return plain(running.priority(), PodColumns.flagsOf(running), running);
            }
            byte flags = PodColumns.flagsOf(running);
            if ((flags & (PodColumns.TERMINATING | PodColumns.MIRROR)) != 0) {
                return standing(flags, running, snapshot);
            }
            Queue leaf = rules.leafOf(running);
            Optional<Protection> byQueue = rules.protectionOf(running, leaf);
            if (byQueue.isEmpty() && running.priority() >= pending.priority()) {
                return Protection.PRIORITY_NOT_LOWER;
            }
            if (byQueue.isPresent() && byQueue.get() != Protection.NONE) {
                return byQueue.get();
            }
            // checked last, so a disabled queue's pod that a DaemonSet takes as last resort still obeys the laws
            if (leaf != null && leaf.disabledBy() != null) {
                return Protection.QUEUE_PREEMPTION_DISABLED;
            }
            return optOut(flags, running, snapshot);
        }

        /** Without queue rules, read from the columns: the pod itself only when a PriorityClass may opt it out. */
        @Override
        public Protection protectionOf(PodColumns columns, int row, PodInfo running) {
            return rules.inactive() && keptWhole.isEmpty() ? plain(columns.priority(row), columns.flags(row), running)
                    : protectionOf(running);
        }

        private Protection plain(int priority, byte flags, PodInfo running) {
            if (priority >= pending.priority()) {
                return Protection.PRIORITY_NOT_LOWER;
            }
            return standing(flags, running, snapshot);
        }

        @Override
        public Tier tierOf(PodInfo running, Protection protection) {
            if (protection == Protection.NONE) {
                return rules.active() && running.originator() ? Tier.ORIGINATORS : Tier.ORDINARY;
            }
            return protection.isOptOut() && daemonSetHere ? Tier.OPTED_OUT_LAST_RESORT : Tier.OUT_OF_REACH;
        }
    }

    /** Moving's configuration: one round's {@link Movers}, for one pending pod. */
    record Moving(PodInfo pending, Movers movers) implements Eligibility {

        @Override
        public Protection protectionOf(PodInfo pod) {
            if (movers.movedThisRound.contains(pod.uid())) {
                return Protection.MOVED_THIS_ROUND;
            }
            if (movers.heldBack.contains(pod.uid())) {
                return Protection.EVICTION_REFUSED_LATELY;
            }
            if (pod.priority() > pending.priority()) {
                return Protection.PRIORITY_ABOVE;
            }
            if (!pod.defragmentable()) {
                return Protection.DEFRAGMENTATION_OPTED_OUT;
            }
            if (pending.controller() != null && pending.controller().equals(pod.controller())) {
                return Protection.SAME_APPLICATION;
            }
            return movers.standingOf(pod);
        }
    }

    /**
     * What one rescheduler round knows of who may move, whatever the pending pod: {@code neverMoved}
     * ({@link Protection#NEVER_MOVED}, {@link Protection#OUT_OF_SCOPE} or NONE, asked once per pod),
     * the pods moved so far this round (the round adds to the set) and those the Eviction API refused lately.
     */
    final class Movers {
        private final Function<PodInfo, Protection> neverMoved;
        private final Set<String> movedThisRound;
        private final Set<String> heldBack;
        private final Map<String, Protection> standing = new HashMap<>();

        public Movers(Function<PodInfo, Protection> neverMoved, Set<String> movedThisRound, Set<String> heldBack) {
            this.neverMoved = neverMoved;
            this.movedThisRound = movedThisRound;
            this.heldBack = heldBack;
        }

        /** Who may be moved for {@code pending}. */
        public Moving forPending(PodInfo pending) {
            return new Moving(pending, this);
        }

        /**
         * Whether the pod could be moved for some pending pod this round: what does not depend on the
         * pending pod or on the round's moves so far (a necessary condition of {@link Moving}'s NONE,
         * whatever the pending pod of at least its priority).
         */
        public boolean mayEverMove(PodInfo pod) {
            return !heldBack.contains(pod.uid()) && pod.defragmentable() && standingOf(pod) == Protection.NONE;
        }

        private Protection standingOf(PodInfo pod) {
            return standing.computeIfAbsent(pod.uid(), uid -> neverMoved.apply(pod));
        }
    }
}
