package dev.makeroom.core.model;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where the consolidate policy stands with a node, read from the taint it writes there
 * ({@value #TAINT_KEY}{@code :NoSchedule}): draining since a time, or emptied since a time and kept so
 * that nothing lands there before the cluster autoscaler removes it. The taint is the only record of it,
 * so every replica (and the scheduler) reads the same; its value is the time in epoch seconds, prefixed
 * {@value #EMPTIED_PREFIX} once the node is empty.
 */
public record ConsolidationMark(boolean emptied, Instant since) {

    public static final String TAINT_KEY = "makeroom.dev/consolidating";
    static final String EMPTIED_PREFIX = "empty.";

    /** The taint of a node being emptied since {@code since}. */
    public static Taint draining(Instant since) {
        return new Taint(TAINT_KEY, Long.toString(since.getEpochSecond()), "NoSchedule");
    }

    /** The taint of a node empty since {@code since}, kept so nothing lands there before the autoscaler removes it. */
    public static Taint emptied(Instant since) {
        return new Taint(TAINT_KEY, EMPTIED_PREFIX + since.getEpochSecond(), "NoSchedule");
    }

    /** The node's mark; empty when the policy has not tainted it. */
    public static Optional<ConsolidationMark> of(NodeInfo node) {
        for (Taint taint : node.admission().taints()) {
            if (TAINT_KEY.equals(taint.key())) {
                String value = taint.value() == null ? "" : taint.value();
                boolean emptied = value.startsWith(EMPTIED_PREFIX);
                try {
                    return Optional.of(new ConsolidationMark(emptied, Instant.ofEpochSecond(Long.parseLong(
                            emptied ? value.substring(EMPTIED_PREFIX.length()) : value))));
                } catch (NumberFormatException e) {
                    // written by hand: long past, so the next step comes at once
                    return Optional.of(new ConsolidationMark(emptied, Instant.EPOCH));
                }
            }
        }
        return Optional.empty();
    }

    /** Whether the policy has tainted the node (draining or emptied). */
    public static boolean isMarked(NodeInfo node) {
        return of(node).isPresent();
    }

    /** The node as it will be once released: without the policy's taint. */
    public static NodeInfo released(NodeInfo node) {
        NodeAdmission admission = node.admission();
        List<Taint> taints = admission.taints().stream().filter(t -> !TAINT_KEY.equals(t.key())).toList();
        return new NodeInfo(node.name(), node.labels(), node.allocatable(), node.pods(), node.nominatedPods(),
                new NodeAdmission(admission.unschedulable(), taints, admission.avoided(), admission.reservations()));
    }
}
