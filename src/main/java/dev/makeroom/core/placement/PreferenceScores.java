package dev.makeroom.core.placement;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PreferredPodTerm;

import java.util.HashMap;
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
        long score = pod.constraints().preferenceFor(node.labels());
        NodeInfo home = pod.nodeName() == null ? null : state.node(pod.nodeName());
        for (PreferredPodTerm t : pod.constraints().preferredPods()) {
            PodAffinityTerm term = t.term();
            String domain = Topology.domainOf(node, term.topologyKey());
            if (domain == null || term.namespacesByLabels()) {
                continue;
            }
            int count = selectedBy(new Owned(pod.namespace(), term, t.signedWeight(), false), pod).getOrDefault(domain, 0);
            if (home != null && term.selects(pod, pod) && domain.equals(Topology.domainOf(home, term.topologyKey()))) {
                count--; // the pod does not count itself
            }
            score += (long) t.signedWeight() * count;
        }
        for (Map.Entry<Owned, Map<String, Integer>> e : owners.entrySet()) {
            Owned owned = e.getKey();
            PodAffinityTerm term = owned.term();
            String domain = Topology.domainOf(node, term.topologyKey());
            if (domain == null || !term.selects(someOwner.get(owned), pod)) {
                continue;
            }
            int count = e.getValue().getOrDefault(domain, 0);
            if (home != null && domain.equals(Topology.domainOf(home, term.topologyKey()))) {
                count -= timesOwned(pod, owned); // the pod's own terms, counted among the owners, are not others'
            }
            score += (long) owned.weight() * count;
        }
        return score;
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
