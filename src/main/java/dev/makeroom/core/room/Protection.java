package dev.makeroom.core.room;

/** Why a pod on a candidate node may not be a victim ({@link #NONE}: it may). */
public enum Protection {
    NONE("preemptible"),
    PRIORITY_NOT_LOWER("at equal or higher priority"),
    TERMINATING("already terminating"),
    MIRROR_POD("mirror pod"),
    POD_OPTED_OUT("opted out by annotation"),
    PRIORITY_CLASS_OPTED_OUT("opted out by PriorityClass"),
    /** Law 3: a pod never preempts pods of its own application. */
    SAME_APPLICATION("of the same application"),
    /** Law 6: across queues a victim's priority may equal the pending pod's, never exceed it. */
    PRIORITY_HIGHER("at higher priority in another queue"),
    /** Law 7: the pending pod's queue is fenced and the victim's queue lies outside the fence. */
    OUTSIDE_FENCE("outside the queue's fence"),
    /** Law 4: the pending pod's queue is not below its guarantee, so it may not take from other queues. */
    PREEMPTOR_QUEUE_NOT_BELOW_GUARANTEE("in another queue while the pod's own is not below its guarantee"),
    /** The pending pod has not yet waited its queue's preemption delay to take from other queues. */
    PREEMPTION_DELAY("in another queue before the preemption delay has passed"),
    /** Law 5: the victim's queue is not above its guarantee. */
    VICTIM_QUEUE_NOT_ABOVE_GUARANTEE("in a queue not above its guarantee"),
    /** Law 2: evicting this pod alone would take its queue below its guarantee. */
    VICTIM_QUEUE_WOULD_GO_BELOW_GUARANTEE("in a queue that would drop below its guarantee"),
    /** A member of a gang that this way of making room keeps whole (preemption weighs its gangs, docs/gangs.md). */
    GANG_KEPT_WHOLE("of a gang kept running"),
    /** The victim's queue (or an ancestor) has {@code preemption.policy: disabled}. */
    QUEUE_PREEMPTION_DISABLED("in a queue with preemption disabled"),
    // Moving rather than evicting: what keeps a pod from being moved to make room (the rescheduler's)
    /** The pod's priority is above the pending pod's: a move never favours the less important. */
    PRIORITY_ABOVE("at higher priority"),
    /** Kept in place whatever the policy (no controller, DaemonSet or static pod, opted out, local storage…). */
    NEVER_MOVED("that never move"),
    /** Outside the rescheduler's scope (namespaces, selectors, priority threshold, age, replicas). */
    OUT_OF_SCOPE("outside the rescheduler's scope"),
    /** Annotated out of defragmentation. */
    DEFRAGMENTATION_OPTED_OUT("opted out of defragmentation"),
    /** Moved already this round: one move per pod per round. */
    MOVED_THIS_ROUND("moved already this round"),
    /** The Eviction API refused it lately; held back until its backoff runs out. */
    EVICTION_REFUSED_LATELY("refused eviction lately");

    private final String description;

    Protection(String description) {
        this.description = description;
    }

    /** A short phrase for counted explanations: "2 at equal or higher priority". */
    public String describe() {
        return description;
    }

    /**
     * Preemption policies are a strong wish, not a guarantee (law 1): a pinned DaemonSet pod may
     * still take opted-out pods and pods of disabled queues when nothing else works.
     */
    public boolean isOptOut() {
        return this == POD_OPTED_OUT || this == PRIORITY_CLASS_OPTED_OUT || this == QUEUE_PREEMPTION_DISABLED;
    }
}
