package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SpreadConstraint;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The oracle of what a move owes the pods that stay, written out plainly from the rules: a placed pod's
 * topology spread skew (fullest counted domain minus the emptiest) and whether its required pod
 * affinity has a matching pod in its domain, on a whole snapshot.
 */
public final class KeptOracle {

    private KeptOracle() {
    }

    /**
     * Whether, on {@code after}, every placed pod but the {@code moved} one has each spread constraint's skew at
     * most maxSkew or at most what it was on {@code start}, and its required affinity met if it was met
     * on {@code start}.
     */
    public static boolean keeps(ClusterSnapshot start, ClusterSnapshot after, PodInfo moved) {
        return keeps(start, after, List.of(moved.uid()));
    }

    /** As above, for the pods of uids {@code moved} moved together. */
    public static boolean keeps(ClusterSnapshot start, ClusterSnapshot after, List<String> moved) {
        for (PodInfo staying : after.pods()) {
            if (moved.contains(staying.uid()) || !staying.isAssigned() || start.pod(staying.uid()) == null) {
                continue;
            }
            PodInfo atStart = start.pod(staying.uid());
            for (SpreadConstraint c : staying.constraints().spread()) {
                if (skew(after, staying, c) > Math.max(c.maxSkew(), skew(start, atStart, c))) {
                    return false;
                }
            }
            if (!staying.constraints().affinity().isEmpty() && atStart.isAssigned() && affinityMet(start, atStart)
                    && !affinityMet(after, staying)) {
                return false;
            }
        }
        return true;
    }

    /** The skew of {@code owner}'s constraint {@code c} on {@code cluster}. */
    public static long skew(ClusterSnapshot cluster, PodInfo owner, SpreadConstraint c) {
        Map<String, Long> counts = new HashMap<>();
        for (NodeInfo node : cluster.nodes()) {
            boolean hasKeys = owner.constraints().spread().stream().allMatch(s -> value(node, s.topologyKey()) != null);
            if (!hasKeys || (c.honorNodeAffinity() && !owner.constraints().allowsNode(node))) {
                continue;
            }
            long matching = node.pods().stream().filter(p -> !p.terminating() && p.namespace().equals(owner.namespace())
                    && c.selector().matches(p.labels())).count();
            counts.merge(value(node, c.topologyKey()), matching, Long::sum);
        }
        if (counts.isEmpty()) {
            return 0;
        }
        long max = counts.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        long min = counts.size() < c.minDomains() ? 0 : counts.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        return max - min;
    }

    /** Whether every required affinity term of {@code owner} finds another pod matching all its terms in its domain. */
    public static boolean affinityMet(ClusterSnapshot cluster, PodInfo owner) {
        NodeInfo home = cluster.node(owner.nodeName());
        for (PodAffinityTerm term : owner.constraints().affinity()) {
            String domain = value(home, term.topologyKey());
            boolean found = false;
            for (NodeInfo node : cluster.nodes()) {
                if (domain == null || !domain.equals(value(node, term.topologyKey()))) {
                    continue;
                }
                found |= node.pods().stream().anyMatch(p -> !p.uid().equals(owner.uid())
                        && owner.constraints().affinity().stream().allMatch(t -> t.selects(owner, p)));
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    private static String value(NodeInfo node, String key) {
        String v = node.labels().get(key);
        return v == null && key.equals(PodAffinityTerm.HOSTNAME) ? node.name() : v;
    }
}
