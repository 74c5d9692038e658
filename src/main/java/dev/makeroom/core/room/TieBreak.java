package dev.makeroom.core.room;

import dev.makeroom.core.model.PodColumns;
import dev.makeroom.core.model.PodInfo;

import java.util.List;

/**
 * The gentleness tie-breaks of the {@link Objective}, in the order they are compared, each a per-victim
 * cost summed over the set. Adding one is adding a constant and its cost here: the pool, the search,
 * its bounds and the debug API all read this list. Every cost is at least 0, so sums only grow as
 * victims are added. The search relies on one more property: pods that agree on everything but the
 * <em>last</em> tie-break are interchangeable, and are taken cheapest first.
 */
public enum TieBreak {
    /** Best-effort before burstable before guaranteed pods. */
    QOS_RANK("qosRankSum"),
    /** With queues: pods that did not start their application before the ones that did. */
    ORIGINATORS("originators"),
    /** Pods that go quickly before pods that keep the node busy terminating. */
    GRACE_PERIOD("gracePeriodSum"),
    /** Newer pods before older ones (see {@link Age}). */
    AGE("ageSum");

    public static final List<TieBreak> ALL = List.of(values());
    public static final int COUNT = ALL.size();

    private final String field;

    TieBreak(String field) {
        this.field = field;
    }

    /** The name of the summed cost where decisions are shown (the debug API). */
    public String field() {
        return field;
    }

    /** One victim's cost (a switch, not a function per constant: it runs for every candidate of every node). */
    public long cost(PodInfo pod) {
        return switch (this) {
            case QOS_RANK -> pod.qos().ordinal();
            case ORIGINATORS -> pod.originator() ? 1 : 0;
            case GRACE_PERIOD -> Math.max(0, pod.terminationGracePeriodSeconds());
            case AGE -> Age.ofStart(PodColumns.secondOf(pod.startTime()));
        };
    }

    /** One victim's cost, read from its row of its node's columns (only the column this tie-break weighs). */
    long cost(PodColumns columns, int row) {
        return switch (this) {
            case QOS_RANK -> columns.qos(row);
            case ORIGINATORS -> columns.has(row, PodColumns.ORIGINATOR) ? 1 : 0;
            case GRACE_PERIOD -> Math.max(0, columns.terminationGracePeriodSeconds(row));
            case AGE -> Age.ofStart(columns.startSecond(row));
        };
    }
}
