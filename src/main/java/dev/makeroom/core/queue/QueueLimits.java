package dev.makeroom.core.queue;

import dev.makeroom.core.model.PodInfo;

import java.util.Map;

/** The {@code max} of a pod's queue and its ancestors, as the filter verb applies them. */
public final class QueueLimits {

    private QueueLimits() {
    }

    /**
     * Why the pod cannot run anywhere without its leaf queue or an ancestor going over its max, or
     * null when it can. The first queue from the leaf up that would go over is named.
     */
    public static String exceeded(QueueUsage usage, Queue leaf, PodInfo pod) {
        for (Queue q = leaf; q != null; q = q.parent()) {
            for (Map.Entry<String, Long> limit : q.max().entrySet()) {
                String r = limit.getKey();
                long asked = QueueUsage.amount(pod, r);
                long used = usage.of(q, r);
                if (asked > 0 && used + asked > limit.getValue()) {
                    return "queue " + q.fullName() + " would exceed its max " + r + " (uses " + used
                            + ", pod asks " + asked + ", max " + limit.getValue() + ")";
                }
            }
        }
        return null;
    }
}
