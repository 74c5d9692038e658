package dev.makeroom.core.model;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Room makeroom holds on a node until {@code until} for a pod that is to come there. Two uses, one
 * rule: a pending pod that defragmentation moved others off the node for ({@code replacement} null,
 * {@code pod} that pod), and the replacement of a pod the rescheduler moved, whose landing makeroom
 * proved here ({@code pod} the moved pod; the pod to come is any later pod of its controller, of its
 * own name for a StatefulSet's). While it holds, the extender keeps other pods of priority at most
 * the claimant's off the node, and steers the claimant to it.
 *
 * <p>A pending pod's hold ends early when that pod binds (anywhere) or is deleted; a landing once its
 * replacement is bound on the node ({@link #holdingOn}), and the rescheduler then removes it and
 * reports where the replacement went ({@link #replacementIn}).
 */
public record Reservation(PodRef pod, Instant until, Replacement replacement) {

    /**
     * The pod to come in a moved pod's place: a pod of controller {@code controllerUid} (named
     * {@code name} when the controller gives a replacement the moved pod's name, else any name),
     * created at or after {@code since}, of priority {@code priority} (the moved pod's).
     */
    public record Replacement(String controllerUid, String name, int priority, Instant since) {

        boolean is(PodInfo other, PodRef moved) {
            return !other.uid().equals(moved.uid()) && other.controller() != null
                    && controllerUid.equals(other.controller().uid()) && (name == null || name.equals(other.name()));
        }

        /** Whether {@code other} came after the move (creation times have whole seconds). */
        boolean cameAfterMove(PodInfo other) {
            Instant created = other.creationTime();
            return created == null || !created.isBefore(since.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        }
    }

    /** Room held for a pending pod. */
    public Reservation(PodRef pod, Instant until) {
        this(pod, until, null);
    }

    /**
     * Room held until {@code until} for the replacement of {@code moved}, moved at {@code since}; null
     * for a pod no controller replaces.
     */
    public static Reservation landing(PodInfo moved, Instant since, Instant until) {
        if (moved.controller() == null || moved.controller().uid() == null) {
            return null;
        }
        String name = "StatefulSet".equals(moved.controller().kind()) ? moved.name() : null;
        return new Reservation(moved.ref(), until,
                new Replacement(moved.controller().uid(), name, moved.priority(), since));
    }

    /** Whether this holds room for a moved pod's replacement (a landing), not for a pending pod. */
    public boolean isLanding() {
        return replacement != null;
    }

    /** Whether the reservation still holds at {@code now}, given the pending pod as the snapshot has it (null: gone). */
    public boolean holds(PodInfo reserved, Instant now) {
        return until.isAfter(now) && reserved != null && !reserved.isAssigned() && !reserved.terminating();
    }

    /** Whether it holds at {@code now}, the pending pod as {@code snapshot} has it; a landing, until its time is up. */
    public boolean holdsIn(ClusterSnapshot snapshot, Instant now) {
        return isLanding() ? until.isAfter(now) : holds(snapshot.pod(pod.uid()), now);
    }

    /** Whether {@code other} is the pod the room is held for. */
    public boolean claimedBy(PodInfo other) {
        return isLanding() ? replacement.is(other, pod) : other.uid().equals(pod.uid());
    }

    /** Whether it holds at {@code now} and keeps {@code other} off: another pod, of priority at most the claimant's. */
    public boolean keepsOff(PodInfo other, ClusterSnapshot snapshot, Instant now) {
        if (claimedBy(other)) {
            return false;
        }
        if (isLanding()) {
            return until.isAfter(now) && other.priority() <= replacement.priority();
        }
        PodInfo reserved = snapshot.pod(pod.uid());
        return holds(reserved, now) && other.priority() <= reserved.priority();
    }

    /** The nodes of {@code snapshot} holding room for the pending pod with {@code uid} (not a landing), by name. */
    public static Set<String> nodesHolding(ClusterSnapshot snapshot, String uid) {
        Set<String> holding = new TreeSet<>();
        for (NodeInfo node : snapshot.nodesWithReservations().values()) {
            for (Reservation reservation : node.admission().reservations()) {
                if (!reservation.isLanding() && reservation.pod().uid().equals(uid)) {
                    holding.add(node.name());
                }
            }
        }
        return holding;
    }

    /**
     * The reservations of {@code node} that hold at {@code now}. A landing is served, and holds no more,
     * once a replacement it claims is bound on the node: with several landings of one controller on the
     * node, as many of them as such replacements are bound there (the earliest first).
     */
    public static List<Reservation> holdingOn(NodeInfo node, ClusterSnapshot snapshot, Instant now) {
        List<Reservation> all = node.admission().reservations();
        List<Reservation> holding = new ArrayList<>(all.size());
        Map<String, Integer> servedLeft = null; // per claimant: replacements bound here not yet matched to a landing
        for (Reservation reservation : all) {
            if (!reservation.holdsIn(snapshot, now)) {
                continue;
            }
            if (reservation.isLanding()) {
                servedLeft = servedLeft == null ? new HashMap<>() : servedLeft;
                String key = reservation.replacement.controllerUid + "/" + reservation.replacement.name;
                int left = servedLeft.computeIfAbsent(key, k -> reservation.boundOn(node));
                if (left > 0) {
                    servedLeft.put(key, left - 1);
                    continue;
                }
            }
            holding.add(reservation);
        }
        return holding;
    }

    /**
     * The first reservation of {@code node} that keeps {@code pod} off it at {@code now}, or null; none
     * does when the node also holds room for the pod itself (several moved pods' rooms on one node).
     */
    public static Reservation keepingOff(NodeInfo node, PodInfo pod, ClusterSnapshot snapshot, Instant now) {
        if (node.admission().reservations().isEmpty()) {
            return null;
        }
        return keepingOff(holdingOn(node, snapshot, now), pod, snapshot, now);
    }

    /** As above, of a node's reservations that hold ({@link #holdingOn}). */
    public static Reservation keepingOff(List<Reservation> holding, PodInfo pod, ClusterSnapshot snapshot, Instant now) {
        Reservation keeping = null;
        for (Reservation reservation : holding) {
            if (reservation.claimedBy(pod)) {
                return null;
            }
            if (keeping == null && reservation.keepsOff(pod, snapshot, now)) {
                keeping = reservation;
            }
        }
        return keeping;
    }

    /** How many replacements this landing claims are bound on {@code node}, created after its move. */
    private int boundOn(NodeInfo node) {
        int bound = 0;
        for (PodInfo candidate : node.pods()) {
            if (isReplacement(candidate)) {
                bound++;
            }
        }
        return bound;
    }

    /**
     * A replacement this landing claims, bound in {@code snapshot}: on the landing's own node
     * {@code planned} if one is there, else anywhere; null while none is.
     */
    public PodInfo replacementIn(ClusterSnapshot snapshot, String planned) {
        if (!isLanding()) {
            return null;
        }
        NodeInfo own = snapshot.node(planned);
        if (own != null) {
            for (PodInfo candidate : own.pods()) {
                if (isReplacement(candidate)) {
                    return candidate;
                }
            }
        }
        for (PodInfo candidate : snapshot.pods()) {
            if (candidate.isAssigned() && isReplacement(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private boolean isReplacement(PodInfo candidate) {
        return !candidate.terminating() && replacement.is(candidate, pod) && replacement.cameAfterMove(candidate);
    }

    /** What the filter says of a node it keeps a pod off. */
    public String describe() {
        return isLanding() ? "reserved by makeroom for the replacement of " + pod + ", moved there"
                : "reserved for " + pod + " by makeroom";
    }

    /**
     * The nodes holding room at {@code now} for {@code pod} (it claims a reservation there), in name
     * order: where the extender steers it. Empty for nearly every pod.
     */
    public static Set<String> heldFor(ClusterSnapshot snapshot, PodInfo pod, Instant now) {
        Map<String, NodeInfo> reserving = snapshot.nodesWithReservations();
        if (reserving.isEmpty()) { // nearly always, and prioritize asks on every call: no iterator made
            return Set.of();
        }
        Set<String> held = null;
        for (NodeInfo node : reserving.values()) {
            if (anyClaimedBy(holdingOn(node, snapshot, now), pod)) {
                held = held == null ? new TreeSet<>() : held;
                held.add(node.name());
            }
        }
        return held == null ? Set.of() : held;
    }

    /** Whether one of a node's holding reservations ({@link #holdingOn}) is for {@code pod}. */
    public static boolean anyClaimedBy(List<Reservation> holding, PodInfo pod) {
        for (Reservation reservation : holding) {
            if (reservation.claimedBy(pod)) {
                return true;
            }
        }
        return false;
    }
}
