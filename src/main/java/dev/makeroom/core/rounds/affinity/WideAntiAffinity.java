package dev.makeroom.core.rounds.affinity;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.PlacementState;
import dev.makeroom.core.placement.Topology;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which pods' required anti-affinity at a topology wider than one node (a zone, a rack) may be broken
 * where they run: for each distinct term (with its owner's namespace, as the replicas of a workload
 * share it) the pods it selects are counted per domain in one walk over the pods, and a pod is a
 * suspect when its domain holds one besides itself. A suspect is confirmed by the placement engine
 * before it moves, on the state the earlier moves left, so counts that moves made stale cost a check,
 * never a wrong move.
 */
final class WideAntiAffinity {

    private WideAntiAffinity() {
    }

    private record TermOf(String namespace, PodAffinityTerm term) {
    }

    static Set<String> suspects(PlacementState state, List<PodInfo> owners) {
        Map<TermOf, PodInfo> terms = new HashMap<>();
        for (PodInfo owner : owners) {
            for (PodAffinityTerm term : owner.antiAffinity()) {
                if (!term.nodeLocal() && !term.namespacesByLabels()) {
                    terms.putIfAbsent(new TermOf(owner.namespace(), term), owner);
                }
            }
        }
        Set<String> suspects = new HashSet<>();
        if (terms.isEmpty()) {
            return suspects;
        }
        Map<TermOf, Map<String, Integer>> selected = new HashMap<>();
        for (NodeInfo node : state.nodes()) {
            for (PodInfo pod : state.podsOn(node)) {
                terms.forEach((key, owner) -> {
                    String domain = Topology.domainOf(node, key.term().topologyKey());
                    if (domain != null && key.term().selects(owner, pod)) {
                        selected.computeIfAbsent(key, k -> new HashMap<>()).merge(domain, 1, Integer::sum);
                    }
                });
            }
        }
        for (PodInfo owner : owners) {
            NodeInfo home = owner.nodeName() == null ? null : state.node(owner.nodeName());
            for (PodAffinityTerm term : home == null ? List.<PodAffinityTerm>of() : owner.antiAffinity()) {
                String domain = Topology.domainOf(home, term.topologyKey());
                if (domain == null) {
                    continue; // a node without the key is in no domain of it: nothing there to keep apart from
                }
                int here = selected.getOrDefault(new TermOf(owner.namespace(), term), Map.of()).getOrDefault(domain, 0);
                if (here - (term.selects(owner, owner) ? 1 : 0) > 0) {
                    suspects.add(owner.uid());
                }
            }
        }
        return suspects;
    }
}
