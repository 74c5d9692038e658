package dev.makeroom.core.queue;

import dev.makeroom.core.model.PodInfo;

import java.util.Map;
import java.util.Optional;

/** The {@code max} of a pod's queue and its ancestors, as the filter verb applies them. */
public final class QueueLimits {

    private QueueLimits() {
    }

    /**
     * The first queue, from the leaf up, that the pod would take over its max wherever it ran; none
     * when it can run.
     */
    public static Optional<QueueOverMax> exceeded(QueueUsage usage, Queue leaf, PodInfo pod) {
        for (Queue q = leaf; q != null; q = q.parent()) {
            for (Map.Entry<String, Long> limit : q.max().entrySet()) {
                String r = limit.getKey();
                long asked = QueueUsage.amount(pod, r);
                long used = usage.of(q, r);
                if (asked > 0 && used + asked > limit.getValue()) {
                    return Optional.of(new QueueOverMax(q.fullName(), r, used, asked, limit.getValue()));
                }
            }
        }
        return Optional.empty();
    }
}
