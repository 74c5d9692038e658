package dev.makeroom.core.placement;

import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Resources;

import java.time.Instant;
import java.util.List;

/** A snapshot as it is, with its reservations as they hold at {@code now}. */
public record SnapshotState(ClusterSnapshot snapshot, Instant now) implements PlacementState {

    @Override
    public List<PodInfo> podsOn(NodeInfo node) {
        return node.pods();
    }

    /** Bound pods, with the nominated pods of at least the pod's priority, not counting the pod itself. */
    @Override
    public Resources requestedFor(NodeInfo node, PodInfo pod) {
        return NodeUsage.requestedFor(node, pod, NodeUsage.homeOf(snapshot, pod));
    }

    @Override
    public Placement heldRoom(PodInfo pod, NodeInfo node) {
        Reservation reservation = Reservation.keepingOff(node, pod, snapshot, now);
        return reservation != null ? Placement.keptOffHeldRoom(reservation.describe()) : Placement.FITS;
    }

    @Override
    public List<PodInfo> podsWithAntiAffinity() {
        return snapshot.podsWithAntiAffinity();
    }
}
