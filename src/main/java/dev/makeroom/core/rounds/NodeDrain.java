package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodRef;

import java.util.List;

/**
 * What the consolidate policy does with one node this round, and why: {@code landings} is the whole
 * proven plan for the pods still on it (each lands with the ones before applied), of which the round's
 * moves are those the limits and budgets allow now; the rest wait for later rounds. {@code yieldedTo}
 * names the waiting pod a kept node is released (or a drain abandoned) for (consolidation's KeptNodeYield), else null.
 */
public record NodeDrain(String node, Step step, String reason, List<Move> landings, PodRef yieldedTo) {

    public NodeDrain {
        landings = List.copyOf(landings);
    }

    /** A step taken for the consolidate policy's own reasons, not for a waiting pod. */
    public NodeDrain(String node, Step step, String reason, List<Move> landings) {
        this(node, step, reason, landings, null);
    }

    public enum Step {
        /** Every pod lands elsewhere: taint the node, then evict what may go now. */
        START,
        /** Draining, and every pod left still lands elsewhere: evict what may go now. */
        CONTINUE,
        /** Only pods that belong to the node are left: mark it empty, still tainted, for the autoscaler. */
        EMPTIED,
        /** Kept empty for {@code keepEmptyFor} and still here (or the policy is off): untaint it, back in service. */
        RELEASE,
        /** A landing can no longer be proven, the time is up, or the policy is off: untaint it. */
        ABANDON,
        /** A candidate the policy looked at and did not start: not every pod may move or lands. */
        NOT_STARTED
    }
}
