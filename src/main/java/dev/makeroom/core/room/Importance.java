package dev.makeroom.core.room;

import dev.makeroom.core.model.PodInfo;

import java.util.Comparator;

/**
 * The kube-scheduler's "more important pod" order, made deterministic: higher priority first, then
 * the earlier start time. Upstream reads a missing start time as "now", so a pod that has not
 * started ranks after every started one, and among pods that have not started its unstable sort
 * ends up reversing the node's bind order: the later-bound pod counts as more important. The
 * real captures in the fixtures confirm that order.
 */
public final class Importance {

    public static final Comparator<PodInfo> MOST_IMPORTANT_FIRST = Importance::compare;

    private Importance() {
    }

    private static int compare(PodInfo a, PodInfo b) {
        if (a.priority() != b.priority()) {
            return Integer.compare(b.priority(), a.priority());
        }
        if (a.startTime() != null && b.startTime() != null) {
            int byStart = a.startTime().compareTo(b.startTime());
            return byStart != 0 ? byStart : Long.compare(a.resourceVersion(), b.resourceVersion());
        }
        if (a.startTime() != null) {
            return -1;
        }
        if (b.startTime() != null) {
            return 1;
        }
        return Long.compare(b.resourceVersion(), a.resourceVersion());
    }
}
