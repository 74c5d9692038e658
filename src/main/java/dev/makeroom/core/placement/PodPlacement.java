package dev.makeroom.core.placement;

import dev.makeroom.core.accounting.FitCheck;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.queue.QueueOverMax;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The placement engine: may this pod run on this node of this cluster state? One home for the
 * kube-scheduler's filter rules in makeroom; filter, simulate, {@code --why} and the rescheduler ask it.
 *
 * <p>Design. As the scheduler does, work that depends only on the pod is done once, in a pre-filter
 * over the state ({@link #of}): topology spread counts per domain ({@link SpreadPreFilter}) and the
 * domains pod (anti-)affinity admits or refuses ({@link AffinityPreFilter}); both are built only when
 * the pod has such constraints or an existing pod's anti-affinity selects it. {@link #on} then runs the
 * filters in the scheduler's order (NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
 * NodeResourcesFit (unresolvable from Kubernetes 1.34 where the pod asks more than the node has at all),
 * the volume filters, PodTopologySpread, InterPodAffinity, DynamicResources ({@link DeviceCheck})), then makeroom's own
 * (reservations, the queue fence); the first that fails decides, with the scheduler's reason text and
 * status: {@link Verdict#UNSCHEDULABLE} where removing pods could help (a preemption candidate),
 * {@link Verdict#UNRESOLVABLE} where nothing on the node can. What makeroom does not model (volumes,
 * namespaces chosen by labels) answers {@link Verdict#UNKNOWN} at its place in the order, never "fits".
 *
 * <p>Not modelled beyond resources: the scheduler's second filter pass with nominated pods added
 * counts their requests (as {@link PlacementState#requestedFor} does) but not their labels for spread
 * and affinity. The state is read, never changed: ask {@link #of} again after a change.
 */
public final class PodPlacement {

    private final PlacementState state;
    private final PodInfo pod;
    private final Optional<QueueOverMax> fence;
    private final List<SpreadPreFilter> spread;
    private final AffinityPreFilter affinity;
    private final String unmodelled;
    private final DeviceCheck devices; // null: the pod has no resource claims

    private PodPlacement(PlacementState state, PodInfo pod, Optional<QueueOverMax> fence) {
        this.state = state;
        this.pod = pod;
        this.fence = fence;
        List<SpreadConstraint> constraints = pod.constraints().spread();
        List<SpreadPreFilter> prefilters = new ArrayList<>(constraints.size());
        for (SpreadConstraint c : constraints) {
            prefilters.add(new SpreadPreFilter(c, pod, state, constraints));
        }
        this.spread = prefilters;
        this.affinity = new AffinityPreFilter(pod, state);
        List<String> unknown = pod.constraints().unmodelled();
        this.unmodelled = unknown.isEmpty() ? null : String.join("; ", unknown);
        this.devices = DeviceCheck.of(pod, state.snapshot());
    }

    /** The engine for {@code pod} on {@code state}. */
    public static PodPlacement of(PlacementState state, PodInfo pod) {
        return new PodPlacement(state, pod, Optional.empty());
    }

    /**
     * As above, with makeroom's queue fence: where {@code fence} names the queue, the pod's or an
     * ancestor, it would take over its max, every node is unresolvable, since no eviction changes that.
     */
    public static PodPlacement of(PlacementState state, PodInfo pod, Optional<QueueOverMax> fence) {
        return new PodPlacement(state, pod, fence);
    }

    public PodInfo pod() {
        return pod;
    }

    /** The state asked about. */
    public PlacementState state() {
        return state;
    }

    /**
     * How many pods matching one of the pod's DoNotSchedule spread constraints must leave
     * {@code domain}, and only it, for the pod to keep that constraint there (preemption's question:
     * its victims come from one node). The pre-filter's rule, never a second copy.
     */
    public long spreadMustLeave(SpreadConstraint constraint, String domain) {
        for (SpreadPreFilter s : spread) {
            if (s.constraint().equals(constraint)) {
                return s.mustLeave(domain, pod);
            }
        }
        throw new IllegalArgumentException("not one of the pod's spread constraints: " + constraint);
    }

    /**
     * The bound pods of {@code node}'s topology domains that required anti-affinity, the pod's or
     * theirs, keeps apart from the pod (InterPodAffinity's pre-filter, asked by preemption).
     */
    public List<KeptApart> keptApart(NodeInfo node) {
        return affinity.keptApart(node, pod);
    }

    /**
     * Whether the pod's required pod affinity still holds on {@code node} once the pods {@code gone}
     * names are removed (InterPodAffinity's pre-filter, asked by preemption for its dry run).
     */
    public boolean affinityHoldsWithout(NodeInfo node, Predicate<PodInfo> gone) {
        return affinity.affinityHoldsWithout(node, pod, gone);
    }

    /** Whether any bound pod's required anti-affinity keeps the pod out of some domain. */
    public boolean keptApartByOthers() {
        return affinity.keptApartByOthers();
    }

    /** The first filter that {@code pod} fails on {@code node}, or {@link Placement#FITS}. */
    public Placement on(NodeInfo node) {
        Placement answer = nodeOnly(node);
        if (answer == null) {
            answer = withPods(node);
        }
        if (answer == null) {
            answer = makeroomsOwn(node);
        }
        return answer == null ? Placement.FITS : answer;
    }

    /** The filters that read the node alone: cordon, taints, node affinity. */
    private Placement nodeOnly(NodeInfo node) {
        if (node.admission().keepsOffAsCordoned(pod)) {
            return Placement.unresolvable(Filter.NODE_UNSCHEDULABLE, "node(s) were unschedulable");
        }
        Taint taint = node.admission().untoleratedTaint(pod);
        if (taint != null) {
            return Placement.unresolvable(Filter.TAINT_TOLERATION, "node(s) had untolerated taint {" + taint.key()
                    + ": " + (taint.value() == null ? "" : taint.value()) + "}");
        }
        if (!pod.constraints().allowsNode(node)) {
            return Placement.unresolvable(Filter.NODE_AFFINITY, "node(s) didn't match Pod's node affinity/selector");
        }
        return null;
    }

    /** The filters that read the node's pods: ports, resources, then (after the unmodelled volumes) spread and affinity. */
    private Placement withPods(NodeInfo node) {
        if (!pod.hostPorts().isEmpty()) {
            for (PodInfo other : state.podsOn(node)) {
                if (!other.uid().equals(pod.uid()) && Conflicts.sharedHostPort(pod, other).isPresent()) {
                    return Placement.unschedulable(Filter.NODE_PORTS,
                            "node(s) didn't have free ports for the requested pod ports");
                }
            }
        }
        long shortMask = FitCheck.shortMask(node.allocatable(), state.requestedFor(node, pod), pod.requests());
        if (shortMask != 0) {
            String reason = FitCheck.describe(shortMask, pod.requests());
            return state.snapshot().version().requestAboveAllocatableIsUnresolvable()
                    && FitCheck.beyondAllocatable(shortMask, node.allocatable(), pod.requests())
                    ? Placement.unresolvable(Filter.NODE_RESOURCES_FIT, reason)
                    : Placement.unschedulable(Filter.NODE_RESOURCES_FIT, reason);
        }
        if (unmodelled != null) {
            return Placement.unknown(Filter.UNMODELLED, unmodelled);
        }
        for (SpreadPreFilter s : spread) {
            String domain = Topology.domainOf(node, s.constraint().topologyKey());
            if (domain == null) {
                return Placement.unresolvable(Filter.POD_TOPOLOGY_SPREAD,
                        "node(s) didn't match pod topology spread constraints (missing required label)");
            }
            if (!s.allows(domain, pod)) {
                return Placement.unschedulable(Filter.POD_TOPOLOGY_SPREAD,
                        "node(s) didn't match pod topology spread constraints");
            }
        }
        Placement affinityAnswer = affinity.on(node, pod);
        if (affinityAnswer != null || devices == null) {
            return affinityAnswer;
        }
        return devices.on(node);
    }

    private Placement makeroomsOwn(NodeInfo node) {
        Placement held = state.heldRoom(pod, node);
        if (!held.fits()) {
            return held;
        }
        return fence.map(over -> Placement.unresolvable(Filter.QUEUE, over.describe())).orElse(null);
    }
}
