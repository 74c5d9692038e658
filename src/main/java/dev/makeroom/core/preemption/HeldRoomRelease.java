package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.placement.PodPlacement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Room makeroom holds idle, given back to a pod that needs it before anyone is evicted for that pod: a
 * node the consolidate policy emptied and keeps tainted for the cluster autoscaler, on which the pod
 * fits once the taint is gone. The scheduler cannot see this room (the taint keeps it off the node), so
 * it asks for victims elsewhere; makeroom answers none and removes the taint instead, and the scheduler
 * places the pod when the node comes back (a taint change wakes the pods it turned away).
 *
 * <p>Only emptied nodes: a node still being emptied is the rescheduler's (it abandons the drain for a pod
 * that waits for it, {@code KeptNodeYield}). Room held for a landing is not released here: its hold
 * lapses on its own time, and makeroom's filter stops honouring it then.
 */
public record HeldRoomRelease(String node, PodRef pod) {

    /** Kept nodes that fit the pod are taken in name order: every replica releases the same one. */
    private static final Comparator<NodeInfo> BY_NAME = Comparator.comparing(NodeInfo::name);

    /**
     * The kept node the placement's pod fits on once released, and not given back lately to another pod
     * ({@code givenBack}, by node); empty when there is none. The placement is asked for only when some
     * node is kept; kept nodes are looked for among the tainted ones only (the snapshot's index, carried
     * from one snapshot to the next): on a real 1.36 cluster of 5,000 nodes a pass over every node took
     * about a third of a preempt decision.
     */
    public static Optional<HeldRoomRelease> find(ClusterSnapshot snapshot, Supplier<PodPlacement> placement,
                                                 Map<String, PodRef> givenBack) {
        List<NodeInfo> kept = new ArrayList<>();
        for (NodeInfo node : snapshot.nodesWithTaints().values()) {
            if (ConsolidationMark.of(node).filter(ConsolidationMark::emptied).isPresent()) {
                kept.add(node);
            }
        }
        if (kept.isEmpty()) {
            return Optional.empty();
        }
        kept.sort(BY_NAME);
        PodPlacement asked = placement.get();
        String uid = asked.pod().uid();
        for (NodeInfo node : kept) {
            PodRef givenTo = givenBack.get(node.name());
            if (givenTo != null && !givenTo.uid().equals(uid)) {
                continue; // already given back to another pod: the view does not show it yet
            }
            if (asked.on(ConsolidationMark.released(node)).fits()) {
                return Optional.of(new HeldRoomRelease(node.name(), asked.pod().ref()));
            }
        }
        return Optional.empty();
    }

    /** Why no one is evicted, as the decision, the log and the Events say it. */
    public String describe() {
        return "node " + node + " is kept empty by makeroom's consolidation and " + pod
                + " fits there: the node is put back into service, no one is evicted";
    }
}
