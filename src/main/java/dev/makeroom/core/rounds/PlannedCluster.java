package dev.makeroom.core.rounds;

import dev.makeroom.core.accounting.FitCheck;
import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.placement.Placement;
import dev.makeroom.core.placement.PlacementState;
import dev.makeroom.core.placement.PodPlacement;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cluster as it will be once the round's moves so far are done: each move takes its pod's requests
 * (and one pod) off the node it leaves and puts them on the node it lands on, so no two moves count the
 * same free space. Answers where a pod may land by asking the placement engine ({@link PodPlacement})
 * on that state, and checks that the move keeps the pods it leaves behind as placed as before
 * ({@link KeptConstraints}).
 */
public final class PlannedCluster implements PlacementState {

    private static final Resources ONE_POD = Resources.of(Resources.PODS, 1);

    private final ClusterSnapshot snapshot;
    private final Instant now;
    // requested after moves minus before, and the result, per node a move touched (Resources arithmetic
    // is not cheap: a round asks these thousands of times)
    private final Map<String, Resources> delta = new HashMap<>();
    private final Map<String, Resources> requestedAfter = new HashMap<>();
    private final Map<String, List<PodInfo>> arrived = new HashMap<>();
    private final Map<String, List<String>> left = new HashMap<>();   // uids
    private final Map<String, PodInfo> reservedThisRound = new HashMap<>(); // node -> the pending pod it is held for
    private final Map<String, PodInfo> movedTo = new HashMap<>(); // uid -> the pod as it lands
    private final Set<String> closed = new HashSet<>(); // nodes the consolidate policy empties from this round on
    private final KeptConstraints kept;
    private long version; // changes with every move, undo and reservation: what the cached placement was asked of
    private PodPlacement cached;
    private long cachedVersion = -1;

    public PlannedCluster(ClusterSnapshot snapshot, Instant now) {
        this.snapshot = snapshot;
        this.now = now;
        this.kept = new KeptConstraints(snapshot, this);
    }

    @Override
    public ClusterSnapshot snapshot() {
        return snapshot;
    }

    /** Bound pods and the nominated pods of at least the pod's priority, once the moves so far are done. */
    @Override
    public Resources requestedFor(NodeInfo node, PodInfo pod) {
        Resources requested = NodeUsage.requestedFor(node, pod, null);
        Resources moved = delta.get(node.name());
        return moved == null ? requested : requested.plus(moved);
    }

    @Override
    public List<PodInfo> podsWithAntiAffinity() {
        List<PodInfo> bound = snapshot.podsWithAntiAffinity();
        if (movedTo.isEmpty()) {
            return bound;
        }
        List<PodInfo> now = new ArrayList<>(bound.size());
        for (PodInfo pod : bound) {
            now.add(movedTo.getOrDefault(pod.uid(), pod));
        }
        return now;
    }

    /** The engine for {@code pod} on the state as it is now; asked again only after the state changed. */
    public PodPlacement placementOf(PodInfo pod) {
        if (cached == null || cachedVersion != version || cached.pod() != pod) {
            cached = PodPlacement.of(this, pod);
            cachedVersion = version;
        }
        return cached;
    }

    /** What the bound pods of {@code node} request once the moves so far are done. */
    public Resources requested(NodeInfo node) {
        return requestedAfter.getOrDefault(node.name(), node.requested());
    }

    /** {@code requested / allocatable} of one resource in percent; 0 where the node has none of it. */
    public double percent(NodeInfo node, String resource) {
        return percent(node, resource, null);
    }

    /**
     * The one home of "percent of allocatable": {@code requested / allocatable} of one resource once
     * {@code landing} (null: none) is on the node too; 0 where the node has none of it.
     */
    public double percent(NodeInfo node, String resource, PodInfo landing) {
        long allocatable = node.allocatable().get(resource);
        long requested = requested(node).get(resource) + (landing == null ? 0 : landing.requests().get(resource));
        return allocatable <= 0 ? 0 : 100.0 * requested / allocatable;
    }

    /**
     * Whether the node is cordoned: someone is draining it, so no plan of the rescheduler uses it, as a
     * target, as room for a pending pod, or as a node to empty (even for a pod that tolerates it).
     */
    public static boolean cordoned(NodeInfo node) {
        return node.admission().unschedulable();
    }

    /** The node's most used of {@code resources}, in percent of allocatable, once the moves so far are done. */
    public double load(NodeInfo node, Iterable<String> resources) {
        double most = 0;
        for (String r : resources) {
            most = Math.max(most, percent(node, r));
        }
        return most;
    }

    /**
     * Whether {@code pod} may land on {@code target} once the moves so far are done: a cordoned node
     * (being drained) or one the consolidate policy empties never; the scheduler's filters and makeroom's own (room reserved
     * for a pending pod of at least its priority, in the API or this round), as the placement engine
     * answers them on this state, where only "fits" lets it land (unknown does not); the node's avoid
     * list, or a move off it this round, naming the pod's controller (the replacement would be kept
     * away; a replica moved there would undo a move); and, for a pod that runs somewhere now, the
     * spread and affinity of the pods it leaves behind ({@link KeptConstraints}).
     */
    public Landing landing(PodInfo pod, NodeInfo target) {
        Landing placement = placement(pod, target);
        if (!placement.lands()) {
            return placement;
        }
        String from = nodeOf(pod);
        OthersKept owed = from == null ? OthersKept.KEPT : kept.brokenBy(pod, snapshot.node(from), target);
        return owed instanceof OthersKept.Broken broken
                ? new Landing.Refused(Landing.Why.LEAVES_OTHERS_WORSE, null, broken.text()) : Landing.LANDS;
    }

    /**
     * {@link #landing} without what the pods that stay are owed: for the moves of one plan, whose
     * sum {@link #keptBroken} checks once they have all landed.
     */
    public Landing placement(PodInfo pod, NodeInfo target) {
        if (cordoned(target)) {
            return new Landing.Refused(Landing.Why.CORDONED, null,
                    "cordoned: being drained, never a target (even for a pod that tolerates it)");
        }
        if (!open(target)) {
            return new Landing.Refused(Landing.Why.BEING_EMPTIED, null,
                    "being emptied by the consolidate policy, never a target (even for a pod that tolerates its taint)");
        }
        Placement placement = placementOf(pod).on(target);
        if (!placement.fits()) {
            return new Landing.Refused(Landing.Why.FILTER, placement.filter(), placement.reason());
        }
        if (target.admission().avoids(pod, now) || leftThisRound(pod, target)) {
            return new Landing.Refused(Landing.Why.AVOIDED, null, "its controller is on the node's avoid list");
        }
        return Landing.LANDS;
    }

    /** Whether the moves so far of {@code moved} leave every pod that stays no worse off than at the round's start. */
    public OthersKept keptBroken(List<PodInfo> moved) {
        return kept.brokenNow(moved);
    }

    /** Whether where {@code pod} lands can depend on other pods' landings, or matter to pods that stay. */
    public boolean interPod(PodInfo pod) {
        return kept.interPod(pod);
    }

    /** Where the pod runs once the moves so far are done (null for a pending pod). */
    public String nodeOf(PodInfo pod) {
        PodInfo moved = movedTo.get(pod.uid());
        return moved != null ? moved.nodeName() : pod.nodeName();
    }

    /** Room held on the node, or planned for another pod this round, keeps {@code pod} off. */
    @Override
    public Placement heldRoom(PodInfo pod, NodeInfo target) {
        PodInfo planned = reservedThisRound.get(target.name());
        if (planned != null && !planned.uid().equals(pod.uid()) && pod.priority() <= planned.priority()) {
            return Placement.keptOffHeldRoom("room planned for " + planned.ref() + " this round");
        }
        Reservation reservation = Reservation.keepingOff(target, pod, snapshot, now);
        return reservation != null ? Placement.keptOffHeldRoom(reservation.describe()) : Placement.FITS;
    }

    /** Whether the node may take moved pods: not emptied or being emptied by the consolidate policy (tainted, or from this round). */
    public boolean open(NodeInfo node) {
        return !closed.contains(node.name()) && !ConsolidationMark.isMarked(node);
    }

    /** The consolidate policy empties the node from now on: no move lands there. */
    public void close(String node) {
        closed.add(node);
        version++;
    }

    /** Whether a move so far lands on the node or leaves it: its pods are not the snapshot's. */
    public boolean touched(NodeInfo node) {
        return !arrived.getOrDefault(node.name(), List.of()).isEmpty() || !left.getOrDefault(node.name(), List.of()).isEmpty();
    }

    /** Whether a move so far lands on the node. */
    public boolean receivesMoves(NodeInfo node) {
        return !arrived.getOrDefault(node.name(), List.of()).isEmpty();
    }

    /** Holds the node's room for {@code pending} for the rest of the round (moves planned after it keep off). */
    public void reserve(String node, PodInfo pending) {
        reservedThisRound.put(node, pending);
        version++;
    }

    /** What must be freed on the node for {@code pod} to fit once the moves so far are done (pods under {@link Resources#PODS}). */
    public Resources deficit(PodInfo pod, NodeInfo node) {
        return FitCheck.deficit(node.allocatable(), requestedFor(node, pod), pod.requests());
    }

    private boolean leftThisRound(PodInfo pod, NodeInfo target) {
        for (String uid : left.getOrDefault(target.name(), List.of())) {
            PodInfo gone = snapshot.pod(uid);
            if (gone != null && gone.controller() != null && gone.controller().equals(pod.controller())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Map<String, Long> spreadCounts(PodInfo pod, SpreadConstraint c) {
        return kept.countsFor(pod, c);
    }

    /** The node's pods once the moves so far are done. */
    @Override
    public List<PodInfo> podsOn(NodeInfo node) {
        List<String> gone = left.getOrDefault(node.name(), List.of());
        List<PodInfo> came = arrived.getOrDefault(node.name(), List.of());
        if (gone.isEmpty() && came.isEmpty()) {
            return node.pods();
        }
        List<PodInfo> pods = new ArrayList<>();
        for (PodInfo pod : node.pods()) {
            if (!gone.contains(pod.uid())) {
                pods.add(pod);
            }
        }
        pods.addAll(came);
        return pods;
    }

    public void move(PodInfo pod, String from, String to) {
        Resources taken = pod.requests().plus(ONE_POD);
        delta.merge(from, Resources.NONE.minus(taken), Resources::plus);
        delta.merge(to, taken, Resources::plus);
        requestedAfter.put(from, snapshot.node(from).requested().plus(delta.get(from)));
        requestedAfter.put(to, snapshot.node(to).requested().plus(delta.get(to)));
        left.computeIfAbsent(from, n -> new ArrayList<>()).add(pod.uid());
        PodInfo landed = pod.toBuilder().nodeName(to).build();
        arrived.computeIfAbsent(to, n -> new ArrayList<>()).add(landed);
        movedTo.put(pod.uid(), landed);
        kept.moved(pod, snapshot.node(from), snapshot.node(to));
        version++;
    }

    /** Takes back {@link #move} (the last move of {@code pod} from {@code from} to {@code to}): a search tries and undoes. */
    public void undo(PodInfo pod, String from, String to) {
        Resources taken = pod.requests().plus(ONE_POD);
        delta.merge(from, taken, Resources::plus);
        delta.merge(to, Resources.NONE.minus(taken), Resources::plus);
        requestedAfter.put(from, snapshot.node(from).requested().plus(delta.get(from)));
        requestedAfter.put(to, snapshot.node(to).requested().plus(delta.get(to)));
        List<String> gone = left.get(from);
        gone.remove(gone.lastIndexOf(pod.uid()));
        List<PodInfo> came = arrived.get(to);
        for (int i = came.size() - 1; i >= 0; i--) {
            if (came.get(i).uid().equals(pod.uid())) {
                came.remove(i);
                break;
            }
        }
        movedTo.remove(pod.uid()); // a pod moves at most once a round: undone, it is back where it was
        kept.moved(pod, snapshot.node(to), snapshot.node(from));
        version++;
    }
}
