package dev.makeroom.core.reschedule;

import dev.makeroom.core.model.Taint;

import java.time.Instant;
import java.util.List;

/**
 * What the consolidate policy does with one node this round, and why: {@code landings} is the whole
 * proven plan for the pods still on it (each lands with the ones before applied), of which the round's
 * moves are those the limits and budgets allow now; the rest wait for later rounds.
 */
public record NodeDrain(String node, Step step, String reason, List<Move> landings) {

    /** The taint on a node the consolidate policy is emptying; its value says since when (epoch seconds). */
    public static final String TAINT_KEY = "makeroom.dev/consolidating";

    /** The taint that marks a node emptied since {@code since}. */
    public static Taint taint(Instant since) {
        return new Taint(TAINT_KEY, Long.toString(since.getEpochSecond()), "NoSchedule");
    }

    public NodeDrain {
        landings = List.copyOf(landings);
    }

    public enum Step {
        /** Every pod lands elsewhere: taint the node, then evict what may go now. */
        START,
        /** Draining, and every pod left still lands elsewhere: evict what may go now. */
        CONTINUE,
        /** Only pods that belong to the node are left: untaint it and leave it to the cluster autoscaler. */
        EMPTIED,
        /** A landing can no longer be proven, the time is up, or the policy is off: untaint it. */
        ABANDON,
        /** A candidate the policy looked at and did not start: not every pod may move or lands. */
        NOT_STARTED
    }
}
