package dev.makeroom.core.queue;

import dev.makeroom.core.model.ClusterSnapshot;

/**
 * Hands out the queue usage of the snapshot a request reads, computing it once per snapshot and
 * from the previous one's per-node sums ({@link QueueUsage#next}).
 */
public final class QueueUsageTracker {

    private QueueUsage last;

    public synchronized QueueUsage usage(ClusterSnapshot snapshot, QueueTree tree) {
        if (last == null || !last.isFor(snapshot, tree)) {
            last = last == null ? QueueUsage.of(snapshot, tree) : last.next(snapshot, tree);
        }
        return last;
    }
}
