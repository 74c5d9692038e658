package dev.makeroom.core.model;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node's requests summed by priority, cumulatively: what all its running (not terminating) pods
 * below a given priority hold. Built once per node version, so a score reads it in one lookup
 * instead of walking the node's pods.
 */
public final class PriorityLadder {

    static final PriorityLadder EMPTY = new PriorityLadder(new int[0], new Resources[0]);

    private final int[] priorities;        // ascending, distinct
    private final Resources[] atOrBelow;   // atOrBelow[i]: sum over pods with priority <= priorities[i]

    private PriorityLadder(int[] priorities, Resources[] atOrBelow) {
        this.priorities = priorities;
        this.atOrBelow = atOrBelow;
    }

    public static PriorityLadder of(List<PodInfo> pods) {
        TreeMap<Integer, Map<String, Long>> byPriority = new TreeMap<>();
        for (PodInfo pod : pods) {
            if (pod.terminating()) {
                continue;
            }
            Map<String, Long> sum = byPriority.computeIfAbsent(pod.priority(), p -> new HashMap<>());
            Resources r = pod.requests();
            for (int i = 0; i < r.size(); i++) {
                sum.merge(r.name(i), r.value(i), Long::sum);
            }
        }
        if (byPriority.isEmpty()) {
            return EMPTY;
        }
        int[] priorities = new int[byPriority.size()];
        Resources[] cumulative = new Resources[byPriority.size()];
        Resources running = Resources.NONE;
        int i = 0;
        for (Map.Entry<Integer, Map<String, Long>> e : byPriority.entrySet()) {
            running = running.plus(Resources.of(e.getValue()));
            priorities[i] = e.getKey();
            cumulative[i++] = running;
        }
        return new PriorityLadder(priorities, cumulative);
    }

    /** The number of distinct priorities among the running pods. */
    int steps() {
        return priorities.length;
    }

    int priority(int step) {
        return priorities[step];
    }

    /** The summed requests of running pods with priority at most {@link #priority}{@code (step)}. */
    Resources atOrBelow(int step) {
        return atOrBelow[step];
    }

    /** The summed requests of running pods with priority strictly below {@code priority}. */
    public Resources below(int priority) {
        int i = Arrays.binarySearch(priorities, priority);
        int last = (i >= 0 ? i : -i - 1) - 1;
        return last < 0 ? Resources.NONE : atOrBelow[last];
    }
}
