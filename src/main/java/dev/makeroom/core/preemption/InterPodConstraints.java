package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.placement.KeptApart;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.placement.UnmodelledTerms;
import dev.makeroom.core.room.CountNeed;
import dev.makeroom.core.room.NodeConstraints;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static dev.makeroom.core.placement.Topology.domainOf;

/**
 * The kube-scheduler's filters that depend on which pods run where — InterPodAffinity and
 * PodTopologySpread with DoNotSchedule — as constraints of one node's victim search. The scheduler
 * does not check the extender's victims again, so makeroom must.
 *
 * <p>Victims come only from the candidate node N. A topology domain is the set of nodes sharing
 * N's value of a term's topology key. Hence, per kind:
 * <ul>
 *   <li><b>Anti-affinity</b>, the pending pod's terms and existing pods' terms that select it: a
 *       conflicting pod in N's domain (the placement engine's pre-filter finds them,
 *       {@link PodPlacement#keptApart}) must be a victim if it runs on N (forced); if it runs on
 *       another node of the domain, no victim set on N works.</li>
 *   <li><b>Affinity</b> of the pending pod: for each term, a pod matching all terms must remain in N's
 *       domain. One on another node of the domain remains; one on N remains only if the scheduler's
 *       own dry run keeps it (priority at least the pending pod's), since that dry run removes every
 *       lower-priority pod before checking and never offers a node where this fails. With no such
 *       pod left anywhere, a pod that matches its own terms starts the group, as upstream allows;
 *       either way no choice of victims on N can break it. The engine answers it
 *       ({@link PodPlacement#affinityHoldsWithout}), told which pods the dry run removes.</li>
 *   <li><b>Spread</b>: how many matching pods must leave N's domain is the placement engine's rule
 *       ({@link PodPlacement#spreadMustLeave}), asked per node; evictions only lower the domain's
 *       count, so it is a count of matching victims, which the search covers like a resource.</li>
 * </ul>
 * Built once per decision, then asked per node. It holds no inter-pod rule of its own: what it adds to
 * the engine's pre-filters is the victim search's view of their answers (which pods are on N, which
 * pods the dry run removes).
 * What it cannot evaluate (see {@link SchedulingConstraints#unmodelled()}, a topology key the node
 * lacks, namespaces chosen by labels) is reported, and the engine keeps the scheduler's victims.
 */
public final class InterPodConstraints {

    private final ClusterSnapshot snapshot;
    private final PodInfo pending;
    private final SchedulingConstraints own;
    private final String unmodelled;
    private PodPlacement placement; // the placement engine for the pending pod: asked, or made when first needed

    private InterPodConstraints(ClusterSnapshot snapshot, PodInfo pending, PodPlacement asked) {
        this.snapshot = snapshot;
        this.pending = pending;
        this.placement = asked;
        this.own = pending.constraints();
        List<String> cannot = new ArrayList<>(own.unmodelled());
        cannot.addAll(UnmodelledTerms.of(pending, snapshot.podsWithAntiAffinity()));
        this.unmodelled = cannot.isEmpty() ? null : String.join("; ", cannot);
    }

    public static InterPodConstraints of(ClusterSnapshot snapshot, PodInfo pending) {
        return new InterPodConstraints(snapshot, pending, null);
    }

    /**
     * As above, asking {@code asked}, the placement engine for the same pod on the same snapshot (a
     * survey just made its pre-filters), rather than making another.
     */
    public static InterPodConstraints of(ClusterSnapshot snapshot, PodInfo pending, PodPlacement asked) {
        if (asked != null && (asked.pod() != pending || asked.state().snapshot() != snapshot)) {
            throw new IllegalArgumentException("the placement was asked of another pod or snapshot");
        }
        return new InterPodConstraints(snapshot, pending, asked);
    }

    /** Whether any inter-pod constraint applies at all (most pods: none, and nothing is computed per node). */
    boolean isEmpty() {
        return unmodelled == null && pending.antiAffinity().isEmpty() && own.affinity().isEmpty()
                && own.spread().isEmpty() && !placement().keptApartByOthers();
    }

    NodeConstraints on(NodeInfo node) {
        if (isEmpty()) {
            return NodeConstraints.NONE;
        }
        if (unmodelled != null) {
            return NodeConstraints.unmodelled(unmodelled);
        }
        Map<String, String> forced = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        String missing = missingKey(node);
        if (missing != null) { // as the scheduler's filters answer it: unresolvable, no eviction helps
            return NodeConstraints.impossible("the node has no label " + missing);
        }
        for (KeptApart apart : placement().keptApart(node)) {
            PodInfo other = apart.pod();
            String why = apart.byAskedPod()
                    ? "the pod's anti-affinity (" + apart.topologyKey() + ") keeps " + other.ref() + " away"
                    : "the anti-affinity (" + apart.topologyKey() + ") of " + other.ref() + " keeps the pod away";
            if (!node.name().equals(other.nodeName())) {
                return NodeConstraints.impossible(why + ", and it runs on " + other.nodeName());
            }
            forced.put(other.uid(), why);
        }
        if (!own.affinity().isEmpty() && !affinityHolds(node)) {
            return NodeConstraints.impossible("the pod's affinity needs a matching pod in this node's domain that "
                    + "evicting lower-priority pods keeps");
        }
        List<CountNeed> needs = new ArrayList<>();
        for (SpreadConstraint c : own.spread()) {
            if (c.honorNodeAffinity() && !own.allowsNode(node)) {
                return NodeConstraints.impossible("the pod's node affinity excludes this node");
            }
            long need = spreadNeed(node, c);
            if (need > 0) {
                String name = "topology spread on " + c.topologyKey();
                Predicate<PodInfo> matching = p -> !p.terminating() && c.counts(pending, p);
                needs.add(new CountNeed(name, need, matching));
                notes.add(name + " (maxSkew " + c.maxSkew() + ") needs " + need + " matching pod"
                        + (need == 1 ? "" : "s") + " of this node gone");
            }
        }
        forced.values().stream().distinct().forEach(notes::add);
        return new NodeConstraints.Shaping(forced, needs, notes);
    }

    private String missingKey(NodeInfo node) {
        for (PodAffinityTerm term : own.affinity()) {
            if (domainOf(node, term.topologyKey()) == null) {
                return term.topologyKey() + " (the pod's affinity)";
            }
        }
        for (SpreadConstraint c : own.spread()) {
            if (domainOf(node, c.topologyKey()) == null) {
                return c.topologyKey() + " (the pod's topology spread)";
            }
        }
        return null;
    }

    /**
     * Whether the pod's affinity holds on the node whatever the victims: the pods that stay are those
     * elsewhere and those of this node the scheduler's dry run keeps (priority at least the pod's). The
     * rule is the placement engine's, asked with the pods the dry run removes.
     */
    private boolean affinityHolds(NodeInfo node) {
        return placement().affinityHoldsWithout(node,
                p -> node.name().equals(p.nodeName()) && p.priority() < pending.priority());
    }

    /** Matching pods of this node's domain that must go: the placement engine's spread rule, asked. */
    private long spreadNeed(NodeInfo node, SpreadConstraint c) {
        return placement().spreadMustLeave(c, domainOf(node, c.topologyKey()));
    }

    /** The placement engine for the pending pod: the one asked, or one made when first needed. */
    private PodPlacement placement() {
        if (placement == null) {
            placement = PodPlacement.of(new SnapshotState(snapshot, null), pending);
        }
        return placement;
    }
}
