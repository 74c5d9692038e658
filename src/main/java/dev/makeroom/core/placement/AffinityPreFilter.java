package dev.makeroom.core.placement;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * InterPodAffinity's pre-filter for one pod, over every bound pod once: the topology domains (key and
 * value) that hold a pod matching all its required affinity terms, the domains its anti-affinity
 * keeps it out of, and the domains existing pods' anti-affinity keeps it out of, each with the pods
 * that do it (preemption asks which: {@link #keptApart}). Nodes are then
 * answered by looking up their own domains; the pod's anti-affinity terms by node need no pre-filter
 * (a node's own pods answer them), so a pod with only those costs no walk over the cluster. Terminating pods count, as they do for the scheduler.
 * A term choosing namespaces by their labels, which the view does not hold, makes the answer unknown.
 */
final class AffinityPreFilter {

    // topology key -> domain -> the pods there matching all the pod's affinity terms
    private final Map<String, Map<String, List<PodInfo>>> withAffinityMatch = new HashMap<>();
    // topology key -> domain -> the pods there that anti-affinity keeps apart from the pod
    private final Map<String, Map<String, List<PodInfo>>> keptOutByOwn = new HashMap<>();
    private final Map<String, Map<String, List<PodInfo>>> keptOutByExisting = new HashMap<>();
    private final boolean matchesOwnAffinity;
    private final String unknown;
    private final PlacementState state;
    private final List<PodAffinityTerm> byNode;

    AffinityPreFilter(PodInfo pod, PlacementState state) {
        List<PodAffinityTerm> affinity = pod.constraints().affinity();
        List<PodAffinityTerm> anti = pod.antiAffinity();
        // existing pods on nodes the state does not hold count for nothing, here as below
        List<String> cannot = UnmodelledTerms.of(pod, state.podsWithAntiAffinity().stream()
                .filter(existing -> existing.nodeName() != null && state.node(existing.nodeName()) != null).toList());
        this.state = state;
        this.byNode = anti.stream().filter(PodAffinityTerm::nodeLocal).toList();
        List<PodAffinityTerm> wider = anti.stream().filter(t -> !t.nodeLocal()).toList();
        if (!affinity.isEmpty() || !wider.isEmpty()) { // terms by node are answered from the node's own pods
            for (NodeInfo node : state.nodes()) {
                for (PodInfo other : state.podsOn(node)) {
                    if (!other.uid().equals(pod.uid())) {
                        count(pod, other, node, affinity, wider);
                    }
                }
            }
        }
        for (PodInfo existing : state.podsWithAntiAffinity()) {
            NodeInfo home = existing.nodeName() == null ? null : state.node(existing.nodeName());
            if (home == null || existing.uid().equals(pod.uid())) {
                continue;
            }
            for (PodAffinityTerm term : existing.antiAffinity()) {
                if (!UnmodelledTerms.choosesByLabelsAndCouldSelect(term, pod) && term.selects(existing, pod)) {
                    keep(keptOutByExisting, term.topologyKey(), Topology.domainOf(home, term.topologyKey()), existing);
                }
            }
        }
        this.matchesOwnAffinity = PodAffinityTerm.allSelect(affinity, pod, pod);
        this.unknown = cannot.isEmpty() ? null : String.join("; ", cannot);
    }

    private void count(PodInfo pod, PodInfo other, NodeInfo node, List<PodAffinityTerm> affinity,
                       List<PodAffinityTerm> anti) {
        if (PodAffinityTerm.allSelect(affinity, pod, other)) { // the caller left the pod itself out, as meets does
            for (PodAffinityTerm term : affinity) {
                keep(withAffinityMatch, term.topologyKey(), Topology.domainOf(node, term.topologyKey()), other);
            }
        }
        for (PodAffinityTerm term : anti) {
            if (term.selects(pod, other)) {
                keep(keptOutByOwn, term.topologyKey(), Topology.domainOf(node, term.topologyKey()), other);
            }
        }
    }

    private static void keep(Map<String, Map<String, List<PodInfo>>> domains, String key, String value, PodInfo pod) {
        if (value != null) { // a node without the key is in no domain of it
            List<PodInfo> there = domains.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(value,
                    v -> new ArrayList<>());
            if (there.isEmpty() || there.get(there.size() - 1) != pod) { // a pod two terms select, once
                there.add(pod);
            }
        }
    }

    /** The filter's answer on {@code node}: null when it passes. */
    Placement on(NodeInfo node, PodInfo pod) {
        if (unknown != null) {
            return Placement.unknown(Filter.INTER_POD_AFFINITY, unknown);
        }
        if (!affinitySatisfied(node, pod)) {
            return Placement.unresolvable(Filter.INTER_POD_AFFINITY, "node(s) didn't match pod affinity rules");
        }
        if (inAny(keptOutByOwn, node) || keptOutOfNode(node, pod)) {
            return Placement.unschedulable(Filter.INTER_POD_AFFINITY, "node(s) didn't match pod anti-affinity rules");
        }
        if (inAny(keptOutByExisting, node)) {
            return Placement.unschedulable(Filter.INTER_POD_AFFINITY,
                    "node(s) didn't satisfy existing pods anti-affinity rules");
        }
        return null;
    }

    /**
     * Every term's domain here holds a pod matching all terms, and the node has every term's key; with
     * no such pod anywhere, a pod that matches its own terms may start the group.
     */
    private boolean affinitySatisfied(NodeInfo node, PodInfo pod) {
        boolean found = true;
        for (PodAffinityTerm term : pod.constraints().affinity()) {
            String here = Topology.domainOf(node, term.topologyKey());
            if (here == null) {
                return false;
            }
            if (!withAffinityMatch.getOrDefault(term.topologyKey(), Map.of()).containsKey(here)) {
                found = false;
            }
        }
        return found || (withAffinityMatch.isEmpty() && matchesOwnAffinity);
    }

    /** Whether an anti-affinity term of the pod by node selects a pod on this node. */
    private boolean keptOutOfNode(NodeInfo node, PodInfo pod) {
        if (byNode.isEmpty()) {
            return false;
        }
        for (PodInfo other : state.podsOn(node)) {
            if (!other.uid().equals(pod.uid())) {
                for (PodAffinityTerm term : byNode) {
                    if (term.selects(pod, other)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static boolean inAny(Map<String, Map<String, List<PodInfo>>> domains, NodeInfo node) {
        for (Map.Entry<String, Map<String, List<PodInfo>>> e : domains.entrySet()) {
            String here = Topology.domainOf(node, e.getKey());
            if (here != null && e.getValue().containsKey(here)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the pod's required affinity still holds on {@code node} once the pods {@code gone} names
     * are removed (preemption's question: the scheduler's dry run removes the node's lower-priority pods
     * before it checks). Every term's domain here must keep a pod matching all the terms; with no such
     * pod left on any node carrying every term's key, a pod matching its own terms starts the group.
     */
    boolean affinityHoldsWithout(NodeInfo node, PodInfo pod, Predicate<PodInfo> gone) {
        List<PodAffinityTerm> terms = pod.constraints().affinity();
        if (terms.isEmpty()) {
            return true;
        }
        boolean anyLeft = false;
        for (List<PodInfo> there : withAffinityMatch.getOrDefault(terms.get(0).topologyKey(), Map.of()).values()) {
            for (PodInfo other : there) {
                if (!gone.test(other) && hasEveryKey(state.node(other.nodeName()), terms)) {
                    anyLeft = true;
                    break;
                }
            }
        }
        if (!anyLeft) {
            return matchesOwnAffinity;
        }
        for (PodAffinityTerm term : terms) {
            String here = Topology.domainOf(node, term.topologyKey());
            List<PodInfo> there = here == null ? List.of()
                    : withAffinityMatch.getOrDefault(term.topologyKey(), Map.of()).getOrDefault(here, List.of());
            if (there.stream().allMatch(gone)) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasEveryKey(NodeInfo node, List<PodAffinityTerm> terms) {
        return node != null && terms.stream().allMatch(t -> Topology.domainOf(node, t.topologyKey()) != null);
    }

    /** Whether any bound pod's required anti-affinity keeps the pod out of some domain. */
    boolean keptApartByOthers() {
        return !keptOutByExisting.isEmpty();
    }

    /**
     * The pods of {@code node}'s domains that required anti-affinity keeps apart from {@code pod}: those
     * the pod's own terms select, by topology key in the order of its terms (by node: the node's own
     * pods), then the existing pods whose terms select it. Each pod once per key.
     */
    List<KeptApart> keptApart(NodeInfo node, PodInfo pod) {
        List<KeptApart> apart = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (PodAffinityTerm term : pod.antiAffinity()) {
            String key = term.topologyKey();
            if (!keys.add(key)) {
                continue;
            }
            if (PodAffinityTerm.nodeLocal(key)) {
                for (PodInfo other : state.podsOn(node)) {
                    if (!other.uid().equals(pod.uid()) && byNode.stream().anyMatch(t -> t.selects(pod, other))) {
                        apart.add(new KeptApart(other, key, true));
                    }
                }
                continue;
            }
            String here = Topology.domainOf(node, key);
            for (PodInfo other : here == null ? List.<PodInfo>of()
                    : keptOutByOwn.getOrDefault(key, Map.of()).getOrDefault(here, List.of())) {
                apart.add(new KeptApart(other, key, true));
            }
        }
        for (Map.Entry<String, Map<String, List<PodInfo>>> byKey : keptOutByExisting.entrySet()) {
            String here = Topology.domainOf(node, byKey.getKey());
            for (PodInfo other : here == null ? List.<PodInfo>of() : byKey.getValue().getOrDefault(here, List.of())) {
                apart.add(new KeptApart(other, byKey.getKey(), false));
            }
        }
        return apart;
    }
}
