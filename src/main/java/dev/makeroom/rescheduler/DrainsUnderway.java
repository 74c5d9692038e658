package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.NodeDrain;
import dev.makeroom.core.rounds.NodeTaints;
import dev.makeroom.core.rounds.consolidate.ConsolidatePolicy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One round's consolidation as it is enacted: a node that starts is tainted before any of its pods is
 * evicted (if the taint cannot be written, none is); an eviction off a draining node that the API
 * refuses or that fails abandons the drain at once — all or nothing — so the node is untainted and its
 * later moves this round are not sent; when the moves are done, an emptied node's taint is marked empty
 * (it stays until released) and released and abandoned nodes are untainted.
 */
final class DrainsUnderway {

    private final NodeTaints taints;
    private final Instant now;
    private final Map<String, NodeDrain> drains = new LinkedHashMap<>(); // by node
    private final Map<String, RoundReport.DrainResult> results = new LinkedHashMap<>();

    DrainsUnderway(List<NodeDrain> drains, NodeTaints taints, Instant now) {
        drains.forEach(d -> this.drains.put(d.node(), d));
        this.taints = taints;
        this.now = now;
    }

    /** Taints the nodes that start, before anything is evicted off them. */
    void begin() {
        for (NodeDrain drain : drains.values()) {
            if (drain.step() == NodeDrain.Step.START) {
                boolean tainted = taints.taint(drain.node(), ConsolidationMark.draining(now));
                results.put(drain.node(), tainted ? result(drain, RoundReport.DrainOutcome.STARTED, "tainted "
                        + ConsolidationMark.TAINT_KEY) : result(drain, RoundReport.DrainOutcome.API_FAILED,
                        "could not taint the node; nothing is evicted off it"));
            } else if (drain.step() == NodeDrain.Step.CONTINUE) {
                results.put(drain.node(), result(drain, RoundReport.DrainOutcome.CONTINUED, null));
            }
        }
    }

    /** Why the move may not be sent, when its node's drain did not start or was abandoned this round. */
    Optional<NotReady> blocks(Move move) {
        if (!ConsolidatePolicy.KIND.equals(move.policy())) {
            return Optional.empty();
        }
        RoundReport.DrainResult result = results.get(move.from());
        if (result == null || result.result() == RoundReport.DrainOutcome.STARTED
                || result.result() == RoundReport.DrainOutcome.CONTINUED) {
            return Optional.empty();
        }
        return Optional.of(new NotReady("the drain of " + move.from() + " is "
                + (result.result() == RoundReport.DrainOutcome.API_FAILED
                ? "not started: the taint could not be written" : "abandoned: " + result.detail())));
    }

    /** An eviction off a draining node that did not happen abandons the drain. */
    void evicted(Move move, Evictor.EvictionOutcome outcome) {
        if (!ConsolidatePolicy.KIND.equals(move.policy()) || !drains.containsKey(move.from())) {
            return;
        }
        if (outcome.result() == Evictor.EvictionOutcome.Result.BLOCKED_BY_BUDGET
                || outcome.result() == Evictor.EvictionOutcome.Result.FAILED) {
            results.put(move.from(), untaint(drains.get(move.from()), "the eviction of " + move.pod() + " did not happen ("
                    + outcome.detail() + ")"));
        }
    }

    /** Marks the emptied nodes, untaints the released and abandoned ones; what came of every node. */
    List<RoundReport.DrainResult> finish() {
        List<RoundReport.DrainResult> all = new ArrayList<>();
        for (NodeDrain drain : drains.values()) {
            RoundReport.DrainResult result = results.get(drain.node());
            if (result == null) {
                result = switch (drain.step()) {
                    case EMPTIED -> taints.taint(drain.node(), ConsolidationMark.emptied(now))
                            ? result(drain, RoundReport.DrainOutcome.EMPTIED, "kept tainted, marked empty")
                            : result(drain, RoundReport.DrainOutcome.API_FAILED, "could not mark the node empty;"
                            + " tried again next round");
                    case RELEASE, ABANDON -> untaint(drain, null);
                    default -> result(drain, RoundReport.DrainOutcome.NOT_STARTED, null);
                };
            }
            all.add(result);
        }
        return all;
    }

    /** The nodes not to try again for a while: abandoned, or not started. */
    Set<String> heldBack(List<RoundReport.DrainResult> finished) {
        Set<String> nodes = new TreeSet<>();
        for (RoundReport.DrainResult result : finished) {
            if (result.result() == RoundReport.DrainOutcome.ABANDONED
                    || result.result() == RoundReport.DrainOutcome.NOT_STARTED) {
                nodes.add(result.drain().node());
            }
        }
        return nodes;
    }

    private RoundReport.DrainResult untaint(NodeDrain drain, String why) {
        RoundReport.DrainOutcome done = drain.step() == NodeDrain.Step.RELEASE ? RoundReport.DrainOutcome.RELEASED
                : RoundReport.DrainOutcome.ABANDONED;
        if (!taints.untaint(drain.node(), ConsolidationMark.TAINT_KEY)) {
            return result(drain, RoundReport.DrainOutcome.API_FAILED, "could not remove the taint; tried again next round"
                    + (why == null ? "" : " (" + why + ")"));
        }
        if (drain.yieldedTo() != null) {
            taints.yielded(drain.yieldedTo(), drain.node(), "makeroom put node " + drain.node() + " back into service"
                    + " for this pod: it fits there and on no other node");
        }
        return result(drain, done, why);
    }

    private static RoundReport.DrainResult result(NodeDrain drain, RoundReport.DrainOutcome outcome, String detail) {
        return new RoundReport.DrainResult(drain, outcome, detail);
    }
}
