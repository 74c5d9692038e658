package dev.makeroom.core.placement;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PreferredPodTerm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the kube-scheduler's NodeAffinity and InterPodAffinity scores add up to for a pod on a node,
 * before they are normalised across nodes: the weights of the pod's preferred node terms the node
 * matches; for each pod in the node's domain of a preferred pod term that the term selects, the term's
 * weight (negative for anti-affinity); and symmetrically, for each pod whose preferred term selects the
 * pod, that term's weight, and for each pod whose required affinity selects it, the hard-affinity
 * weight (1, the scheduler's default), where the node shares that pod's domain. The pod itself never
 * counts. Terms choosing namespaces by their labels, which the view does not hold, are left out.
 *
 * <p>Asked of many pods on one state (a round), so the pods each distinct term selects, and the pods
 * owning each distinct term, are counted per domain once (per term and namespace, as replicas share
 * them), not per question.
 */
public final class PreferenceScores {

    /** The scheduler's default weight of an existing pod's required affinity term that selects the pod. */
    static final int HARD_AFFINITY_WEIGHT = 1;

    /** A term as its owner's namespace reads it, with what each owner adds; {@code hard}: a required affinity term. */
    private record Owned(String namespace, PodAffinityTerm term, int weight, boolean hard) {
    }

    private final PlacementState state;
    private final Map<Owned, Map<String, Integer>> owners = new HashMap<>(); // term -> domain -> pods owning it there
    private final Map<Owned, PodInfo> someOwner = new HashMap<>();
    private final Map<Owned, Map<String, Integer>> selected = new HashMap<>(); // the pod's own terms: domain -> pods selected

    private PreferenceScores(PlacementState state) {
        this.state = state;
        for (NodeInfo node : state.nodes()) {
            for (PodInfo pod : state.podsOn(node)) {
                for (PreferredPodTerm t : pod.constraints().preferredPods()) {
                    own(new Owned(pod.namespace(), t.term(), t.signedWeight(), false), pod, node);
                }
                for (PodAffinityTerm term : pod.constraints().affinity()) {
                    own(new Owned(pod.namespace(), term, HARD_AFFINITY_WEIGHT, true), pod, node);
                }
            }
        }
    }

    /** The scores on {@code state} as it is now; a state that changes needs them made again. */
    public static PreferenceScores of(PlacementState state) {
        return new PreferenceScores(state);
    }

    private void own(Owned owned, PodInfo pod, NodeInfo node) {
        String domain = Topology.domainOf(node, owned.term().topologyKey());
        if (domain != null && !owned.term().namespacesByLabels()) {
            owners.computeIfAbsent(owned, k -> new HashMap<>()).merge(domain, 1, Integer::sum);
            someOwner.putIfAbsent(owned, pod);
        }
    }

    /** Whether the pod has preferences of its own that could make one node score above another. */
    public static boolean hasPreferences(PodInfo pod) {
        return !pod.constraints().preferred().isEmpty() || !pod.constraints().preferredPods().isEmpty();
    }

    /** The pod's score on the node: its preferences' and the other pods' preferences for it, added up. */
    public long of(PodInfo pod, NodeInfo node) {
        return forPod(pod).on(node);
    }

    /**
     * The pod's scores, with what does not depend on the node (which terms count, which other pods'
     * terms select it, where it counts itself) worked out once: ask it of every node.
     */
    public PodScores forPod(PodInfo pod) {
        NodeInfo home = pod.nodeName() == null ? null : state.node(pod.nodeName());
        List<Contribution> parts = new ArrayList<>();
        for (PreferredPodTerm t : pod.constraints().preferredPods()) {
            PodAffinityTerm term = t.term();
            if (!term.namespacesByLabels()) {
                parts.add(new Contribution(term.topologyKey(), t.signedWeight(),
                        selectedBy(new Owned(pod.namespace(), term, t.signedWeight(), false), pod),
                        home == null ? null : Topology.domainOf(home, term.topologyKey()),
                        term.selects(pod, pod) ? 1 : 0)); // the pod does not count itself
            }
        }
        owners.forEach((owned, counts) -> {
            PodAffinityTerm term = owned.term();
            if (term.selects(someOwner.get(owned), pod)) {
                // the pod's own terms, counted among the owners, are not others' preferences for it
                parts.add(new Contribution(term.topologyKey(), owned.weight(), counts,
                        home == null ? null : Topology.domainOf(home, term.topologyKey()), timesOwned(pod, owned)));
            }
        });
        return new PodScores(pod, parts);
    }

    /** One term's weight for each pod it counts in a domain, less the pod's own {@code self} in its own domain. */
    private record Contribution(String key, int weight, Map<String, Integer> counts, String homeDomain, int self) {

        long on(NodeInfo node) {
            String domain = Topology.domainOf(node, key);
            if (domain == null) {
                return 0;
            }
            int count = counts.getOrDefault(domain, 0) - (domain.equals(homeDomain) ? self : 0);
            return (long) weight * count;
        }
    }

    /** One pod's scores across nodes. */
    public static final class PodScores {
        private final PodInfo pod;
        private final List<Contribution> parts;

        private PodScores(PodInfo pod, List<Contribution> parts) {
            this.pod = pod;
            this.parts = parts;
        }

        /** The pod's score on the node. */
        public long on(NodeInfo node) {
            long score = pod.constraints().preferenceFor(node.labels());
            for (Contribution part : parts) {
                score += part.on(node);
            }
            return score;
        }
    }

    /** How many of the pod's terms are this one (a pod may repeat a term: each counted among the owners). */
    private static int timesOwned(PodInfo pod, Owned owned) {
        if (!pod.namespace().equals(owned.namespace())) {
            return 0;
        }
        int times = 0;
        if (owned.hard()) {
            for (PodAffinityTerm term : pod.constraints().affinity()) {
                times += term.equals(owned.term()) ? 1 : 0;
            }
            return times;
        }
        for (PreferredPodTerm t : pod.constraints().preferredPods()) {
            times += t.term().equals(owned.term()) && t.signedWeight() == owned.weight() ? 1 : 0;
        }
        return times;
    }

    /** The pods the term selects, per domain of its key, counted over the state once per term and namespace. */
    private Map<String, Integer> selectedBy(Owned owned, PodInfo asker) {
        return selected.computeIfAbsent(owned, k -> {
            Map<String, Integer> counts = new HashMap<>();
            for (NodeInfo node : state.nodes()) {
                String domain = Topology.domainOf(node, k.term().topologyKey());
                if (domain == null) {
                    continue;
                }
                for (PodInfo other : state.podsOn(node)) {
                    if (k.term().selects(asker, other)) {
                        counts.merge(domain, 1, Integer::sum);
                    }
                }
            }
            return counts;
        });
    }
}
