package dev.makeroom.queueconfig;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.queue.QueueTree;
import dev.makeroom.core.queue.QueueUsage;
import dev.makeroom.core.queue.QueueUsageTracker;
import dev.makeroom.core.room.QueueRules;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** The queues as a request sees them: the configuration in force over the request's snapshot. */
@Component
public class Queues {

    private final QueueConfigService config;
    private final Clock clock;
    private final QueueUsageTracker tracker = new QueueUsageTracker();
    private final PendingSince pendingSince = new PendingSince();

    public Queues(QueueConfigService config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    /** The usage of every queue in {@code snapshot}; null when no queues are configured. */
    public QueueUsage usage(ClusterSnapshot snapshot) {
        QueueTree tree = config.tree();
        return tree.enabled() ? tracker.usage(snapshot, tree) : null;
    }

    /** The queue laws for a pending pod, with how long it has waited by the injected clock. */
    public QueueRules rulesFor(ClusterSnapshot snapshot, PodInfo pod) {
        QueueUsage usage = usage(snapshot);
        if (usage == null) {
            return QueueRules.off();
        }
        Instant now = clock.instant();
        Duration waited = Duration.between(pendingSince.of(pod, now), now);
        return QueueRules.forPending(usage, pod, snapshot.namespaceAnnotations(),
                waited.isNegative() ? Duration.ZERO : waited);
    }
}
