package dev.makeroom.core.placement;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.KubeVersion;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.model.Toleration;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The oracle of {@link PlacementEngineProperties} and of the rescheduler's landings: kube-scheduler 1.26's filters, written out plainly
 * from the plugins' rules — no pre-filter, every count taken again for every node — independently of
 * {@link PodPlacement}. Answers the first failing filter and its status for a pod on a node of a
 * snapshot (no nominated pods, no reservations).
 */
public final class SchedulerFilterOracle {

    private SchedulerFilterOracle() {
    }

    public record Answer(Filter filter, Verdict verdict) {
    }

    public static Answer of(ClusterSnapshot cluster, PodInfo pod, NodeInfo node) {
        if (node.admission().unschedulable() && !tolerates(pod, Taint.UNSCHEDULABLE)) {
            return new Answer(Filter.NODE_UNSCHEDULABLE, Verdict.UNRESOLVABLE);
        }
        for (Taint taint : node.admission().taints()) {
            boolean filtered = taint.effect().equals("NoSchedule") || taint.effect().equals("NoExecute");
            if (filtered && !tolerates(pod, taint)) {
                return new Answer(Filter.TAINT_TOLERATION, Verdict.UNRESOLVABLE);
            }
        }
        if (!nodeAffinityAllows(pod, node)) {
            return new Answer(Filter.NODE_AFFINITY, Verdict.UNRESOLVABLE);
        }
        List<PodInfo> here = node.pods().stream().filter(p -> !p.uid().equals(pod.uid())).toList();
        for (PodInfo other : here) {
            for (HostPort mine : pod.hostPorts()) {
                for (HostPort theirs : other.hostPorts()) {
                    boolean sameAddress = mine.hostIp().equals(theirs.hostIp()) || mine.hostIp().equals("0.0.0.0")
                            || theirs.hostIp().equals("0.0.0.0");
                    if (mine.port() == theirs.port() && mine.protocol().equals(theirs.protocol()) && sameAddress) {
                        return new Answer(Filter.NODE_PORTS, Verdict.UNSCHEDULABLE);
                    }
                }
            }
        }
        if (!resourcesFit(pod, node, here)) {
            // 1.34's fit.go: Unresolvable when the pod's request of a resource exceeds the node's allocatable
            boolean beyond = pod.requests().toMap().entrySet().stream().anyMatch(want -> want.getValue() > 0
                    && !want.getKey().equals(Resources.PODS) && want.getValue() > node.allocatable().get(want.getKey()));
            return new Answer(Filter.NODE_RESOURCES_FIT, beyond && cluster.version().compareTo(new KubeVersion(1, 34)) >= 0
                    ? Verdict.UNRESOLVABLE : Verdict.UNSCHEDULABLE);
        }
        if (!pod.constraints().unmodelled().isEmpty()) {
            return new Answer(Filter.UNMODELLED, Verdict.UNKNOWN);
        }
        for (SpreadConstraint c : pod.constraints().spread()) {
            if (value(node, c.topologyKey()) == null) {
                return new Answer(Filter.POD_TOPOLOGY_SPREAD, Verdict.UNRESOLVABLE);
            }
            if (skewAfter(cluster, pod, node, c) > c.maxSkew()) {
                return new Answer(Filter.POD_TOPOLOGY_SPREAD, Verdict.UNSCHEDULABLE);
            }
        }
        if (!affinityHolds(cluster, pod, node)) {
            return new Answer(Filter.INTER_POD_AFFINITY, Verdict.UNRESOLVABLE);
        }
        if (ownAntiAffinityBroken(cluster, pod, node) || existingAntiAffinityBroken(cluster, pod, node)) {
            return new Answer(Filter.INTER_POD_AFFINITY, Verdict.UNSCHEDULABLE);
        }
        return new Answer(null, Verdict.FITS);
    }

    private static boolean tolerates(PodInfo pod, Taint taint) {
        for (Toleration t : pod.tolerations()) {
            boolean effect = t.effect() == null || t.effect().isEmpty() || t.effect().equals(taint.effect());
            boolean key = t.key() == null ? "Exists".equals(t.operator()) : t.key().equals(taint.key())
                    && ("Exists".equals(t.operator()) || java.util.Objects.equals(t.value(), taint.value()));
            if (effect && key) {
                return true;
            }
        }
        return false;
    }

    /** Terms ORed, requirements ANDed; Gt compares integers; the name field reads the node's name. */
    private static boolean nodeAffinityAllows(PodInfo pod, NodeInfo node) {
        List<LabelSelector> terms = pod.constraints().nodeTerms();
        if (terms.isEmpty()) {
            return true;
        }
        for (LabelSelector term : terms) {
            boolean all = term.matchLabels().entrySet().stream()
                    .allMatch(e -> e.getValue().equals(node.labels().get(e.getKey())));
            for (LabelSelector.Requirement r : term.requirements()) {
                String v = r.key().equals(LabelSelector.NODE_NAME_FIELD) ? node.name() : node.labels().get(r.key());
                all &= switch (r.operator()) {
                    case IN -> v != null && r.values().contains(v);
                    case NOT_IN -> v == null || !r.values().contains(v);
                    case EXISTS -> v != null;
                    case DOES_NOT_EXIST -> v == null;
                    case GT -> v != null && Long.parseLong(v) > Long.parseLong(r.values().get(0));
                    case LT -> v != null && Long.parseLong(v) < Long.parseLong(r.values().get(0));
                };
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    private static boolean resourcesFit(PodInfo pod, NodeInfo node, List<PodInfo> here) {
        if (here.size() + 1 > node.allocatable().get(Resources.PODS)) {
            return false;
        }
        Map<String, Long> used = new HashMap<>();
        here.forEach(p -> p.requests().toMap().forEach((r, v) -> used.merge(r, v, Long::sum)));
        for (var want : pod.requests().toMap().entrySet()) {
            if (want.getValue() > 0 && used.getOrDefault(want.getKey(), 0L) + want.getValue()
                    > node.allocatable().get(want.getKey())) {
                return false;
            }
        }
        return true;
    }

    /** The node's label, the node's name standing in for a missing hostname label. */
    private static String value(NodeInfo node, String key) {
        String v = node.labels().get(key);
        return v == null && key.equals(PodAffinityTerm.HOSTNAME) ? node.name() : v;
    }

    /** Matching pods in the node's domain, plus the pod if it matches, minus the global minimum over counted domains. */
    private static long skewAfter(ClusterSnapshot cluster, PodInfo pod, NodeInfo node, SpreadConstraint c) {
        Map<String, Long> counts = new HashMap<>();
        for (NodeInfo n : cluster.nodes()) {
            boolean hasKeys = pod.constraints().spread().stream().allMatch(s -> value(n, s.topologyKey()) != null);
            boolean affinityOk = !c.honorNodeAffinity() || nodeAffinityAllows(pod, n);
            boolean taintsOk = !c.honorTaints() || n.admission().taints().stream()
                    .filter(t -> t.effect().equals("NoSchedule") || t.effect().equals("NoExecute"))
                    .allMatch(t -> tolerates(pod, t));
            if (!hasKeys || !affinityOk || !taintsOk) {
                continue;
            }
            long matching = n.pods().stream().filter(p -> !p.terminating() && !p.uid().equals(pod.uid())
                    && p.namespace().equals(pod.namespace()) && c.selector().matches(p.labels())).count();
            counts.merge(value(n, c.topologyKey()), matching, Long::sum);
        }
        if (counts.isEmpty()) {
            return Long.MIN_VALUE;
        }
        long min = counts.size() < c.minDomains() ? 0 : counts.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        long self = c.selector().matches(pod.labels()) ? 1 : 0;
        return counts.getOrDefault(value(node, c.topologyKey()), 0L) + self - min;
    }

    private static boolean affinityHolds(ClusterSnapshot cluster, PodInfo pod, NodeInfo node) {
        List<PodAffinityTerm> terms = pod.constraints().affinity();
        if (terms.isEmpty()) {
            return true;
        }
        if (terms.stream().anyMatch(t -> value(node, t.topologyKey()) == null)) {
            return false;
        }
        boolean anyMatchingPod = false;
        boolean everyTermMet = true;
        for (PodAffinityTerm term : terms) {
            boolean met = false;
            for (NodeInfo n : cluster.nodes()) {
                for (PodInfo p : n.pods()) {
                    if (p.uid().equals(pod.uid()) || !terms.stream().allMatch(t -> selects(pod, t, p))) {
                        continue;
                    }
                    if (value(n, term.topologyKey()) != null) {
                        anyMatchingPod = true;
                        met |= value(n, term.topologyKey()).equals(value(node, term.topologyKey()));
                    }
                }
            }
            everyTermMet &= met;
        }
        return everyTermMet || (!anyMatchingPod && terms.stream().allMatch(t -> selects(pod, t, pod)));
    }

    private static boolean ownAntiAffinityBroken(ClusterSnapshot cluster, PodInfo pod, NodeInfo node) {
        for (PodAffinityTerm term : pod.antiAffinity()) {
            for (NodeInfo n : cluster.nodes()) {
                String there = value(n, term.topologyKey());
                boolean sameDomain = there != null && there.equals(value(node, term.topologyKey()));
                if (sameDomain && n.pods().stream().anyMatch(p -> !p.uid().equals(pod.uid()) && selects(pod, term, p))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean existingAntiAffinityBroken(ClusterSnapshot cluster, PodInfo pod, NodeInfo node) {
        Set<String> seen = new HashSet<>();
        for (NodeInfo n : cluster.nodes()) {
            for (PodInfo p : n.pods()) {
                if (p.uid().equals(pod.uid()) || !seen.add(p.uid())) {
                    continue;
                }
                for (PodAffinityTerm term : p.antiAffinity()) {
                    String there = value(n, term.topologyKey());
                    if (selects(p, term, pod) && there != null && there.equals(value(node, term.topologyKey()))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** A term of {@code owner} selects {@code other}: its namespaces (the owner's own when none) and its labels. */
    private static boolean selects(PodInfo owner, PodAffinityTerm term, PodInfo other) {
        boolean namespace = term.allNamespaces() || (term.namespaces().isEmpty()
                ? owner.namespace().equals(other.namespace()) : term.namespaces().contains(other.namespace()));
        return namespace && term.selector().matches(other.labels());
    }
}
