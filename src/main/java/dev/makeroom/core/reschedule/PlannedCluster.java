package dev.makeroom.core.reschedule;

import dev.makeroom.core.accounting.FitCheck;
import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.placement.Conflicts;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster as it will be once the round's moves so far are done: each move takes its pod's requests
 * (and one pod) off the node it leaves and puts them on the node it lands on, so no two moves count the
 * same free space. Answers where a pod may land, with makeroom's filter on that state.
 */
final class PlannedCluster {

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

    PlannedCluster(ClusterSnapshot snapshot, Instant now) {
        this.snapshot = snapshot;
        this.now = now;
    }

    /** What the bound pods of {@code node} request once the moves so far are done. */
    Resources requested(NodeInfo node) {
        return requestedAfter.getOrDefault(node.name(), node.requested());
    }

    /** {@code requested / allocatable} of one resource in percent; 0 where the node has none of it. */
    double percent(NodeInfo node, String resource) {
        long allocatable = node.allocatable().get(resource);
        return allocatable <= 0 ? 0 : 100.0 * requested(node).get(resource) / allocatable;
    }

    /** The node's most used of {@code resources}, in percent of allocatable, once the moves so far are done. */
    double load(NodeInfo node, Iterable<String> resources) {
        double most = 0;
        for (String r : resources) {
            most = Math.max(most, percent(node, r));
        }
        return most;
    }

    /**
     * Why {@code pod} cannot land on {@code target} once the moves so far are done, or null when it can:
     * the scheduler's NodeUnschedulable, TaintToleration, NodeAffinity (selector and required affinity),
     * NodeResourcesFit (with pods nominated there), NodePorts and per-node InterPodAffinity filters;
     * makeroom's own filter (room reserved for a pending pod of at least its priority, in the API or
     * this round); and the node's avoid list, or a move off it this round, naming the pod's controller
     * (the replacement would be kept away; a replica moved there would undo a move).
     */
    String landingProblem(PodInfo pod, NodeInfo target) {
        if (!target.admission().admits(pod)) {
            return "cordoned, or a taint it does not tolerate";
        }
        String reserved = reservedAgainst(pod, target);
        if (reserved != null) {
            return reserved;
        }
        if (target.admission().avoids(pod, now) || leftThisRound(pod, target)) {
            return "its controller is on the node's avoid list";
        }
        if (!pod.constraints().allowsNode(target)) {
            return "its node selector or required node affinity does not allow it";
        }
        Resources requested = NodeUsage.requestedFor(target, pod, null);
        Resources moved = delta.get(target.name());
        if (moved != null) {
            requested = requested.plus(moved);
        }
        if (!FitCheck.fits(target.allocatable(), requested, pod.requests())) {
            return "too little free";
        }
        for (PodInfo other : podsOn(target)) {
            if (other.uid().equals(pod.uid())) {
                continue;
            }
            String port = Conflicts.between(pod, other);
            if (port != null) {
                return port + " taken by " + other.ref();
            }
            if (keptApart(pod, other)) {
                return "required anti-affinity with " + other.ref();
            }
        }
        return null;
    }

    /** What keeps {@code pod} off the node's reserved room, or null. */
    String reservedAgainst(PodInfo pod, NodeInfo target) {
        PodInfo planned = reservedThisRound.get(target.name());
        if (planned != null && !planned.uid().equals(pod.uid()) && pod.priority() <= planned.priority()) {
            return "room planned for " + planned.ref() + " this round";
        }
        Reservation reservation = target.admission().reservation();
        return reservation != null && reservation.keepsOff(pod, snapshot, now) ? reservation.describe() : null;
    }

    /** Whether a move so far lands on the node. */
    boolean receivesMoves(NodeInfo node) {
        return !arrived.getOrDefault(node.name(), List.of()).isEmpty();
    }

    /** Holds the node's room for {@code pending} for the rest of the round (moves planned after it keep off). */
    void reserve(String node, PodInfo pending) {
        reservedThisRound.put(node, pending);
    }

    /** What must be freed on the node for {@code pod} to fit once the moves so far are done (pods under {@link Resources#PODS}). */
    Resources deficit(PodInfo pod, NodeInfo node) {
        Resources requested = NodeUsage.requestedFor(node, pod, null);
        Resources moved = delta.get(node.name());
        return FitCheck.deficit(node.allocatable(), moved == null ? requested : requested.plus(moved), pod.requests());
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

    /** The node's pods once the moves so far are done. */
    List<PodInfo> podsOn(NodeInfo node) {
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

    void move(PodInfo pod, String from, String to) {
        Resources taken = pod.requests().plus(ONE_POD);
        delta.merge(from, Resources.NONE.minus(taken), Resources::plus);
        delta.merge(to, taken, Resources::plus);
        requestedAfter.put(from, snapshot.node(from).requested().plus(delta.get(from)));
        requestedAfter.put(to, snapshot.node(to).requested().plus(delta.get(to)));
        left.computeIfAbsent(from, n -> new ArrayList<>()).add(pod.uid());
        arrived.computeIfAbsent(to, n -> new ArrayList<>()).add(pod.toBuilder().nodeName(to).build());
    }

    /** Takes back {@link #move} (the last move of {@code pod} from {@code from} to {@code to}): a search tries and undoes. */
    void undo(PodInfo pod, String from, String to) {
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
    }

    /** Whether a required node-level anti-affinity term of either pod selects the other. */
    static boolean keptApart(PodInfo a, PodInfo b) {
        return selectsOnSameNode(a, b) || selectsOnSameNode(b, a);
    }

    private static boolean selectsOnSameNode(PodInfo owner, PodInfo other) {
        for (PodAffinityTerm term : owner.antiAffinity()) {
            if (PodAffinityTerm.HOSTNAME.equals(term.topologyKey()) && term.selects(owner, other)) {
                return true;
            }
        }
        return false;
    }
}
