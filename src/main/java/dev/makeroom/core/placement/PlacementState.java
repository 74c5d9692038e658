package dev.makeroom.core.placement;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.SpreadConstraint;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The cluster a placement is asked of: a snapshot as it is ({@link SnapshotState}), or one with
 * planned changes (the rescheduler's round: pods moved, room reserved). Every pod the state lists has
 * its {@code nodeName} as the state has it.
 */
public interface PlacementState {

    /** The snapshot the state starts from: its nodes are the state's. */
    ClusterSnapshot snapshot();

    default Collection<NodeInfo> nodes() {
        return snapshot().nodes();
    }

    /** The node of this name, or null. */
    default NodeInfo node(String name) {
        return snapshot().node(name);
    }

    /** The pods bound to the node in this state. */
    List<PodInfo> podsOn(NodeInfo node);

    /** What NodeResourcesFit counts as taken on the node when {@code pod} is placed (pods under {@link Resources#PODS}). */
    Resources requestedFor(NodeInfo node, PodInfo pod);

    /** Whether room held on the node keeps {@code pod} off: {@link Placement#FITS} when none does. */
    Placement heldRoom(PodInfo pod, NodeInfo node);

    /** The bound pods with required anti-affinity (their terms can keep any pod away). */
    List<PodInfo> podsWithAntiAffinity();

    /**
     * {@code pod}'s spread constraint {@code c} counted as {@link SpreadDomains#count} counts it (never
     * counting {@code pod}), where the state keeps such counts; null where it does not, and the
     * pre-filter counts. A state with many questions about pods alike (a round) keeps them.
     */
    default Map<String, Long> spreadCounts(PodInfo pod, SpreadConstraint c) {
        return null;
    }
}
