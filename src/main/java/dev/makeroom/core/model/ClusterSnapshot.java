package dev.makeroom.core.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One immutable, consistent view of the cluster. Every request reads exactly one snapshot, so
 * nodes, pods and budgets never disagree with each other mid-request.
 */
public final class ClusterSnapshot {

    public static final ClusterSnapshot EMPTY = builder().build();

    private final Map<String, NodeInfo> nodes;
    private final Map<String, PodInfo> podsByUid;
    private final List<DisruptionBudget> budgets;
    private final Map<String, PriorityClassInfo> priorityClasses;
    private final Map<String, Map<String, String>> namespaceAnnotations;
    private final Map<String, List<DisruptionBudget>> budgetsByPod;

    private ClusterSnapshot(Map<String, NodeInfo> nodes, Map<String, PodInfo> podsByUid,
                            List<DisruptionBudget> budgets, Map<String, PriorityClassInfo> priorityClasses,
                            Map<String, Map<String, String>> namespaceAnnotations) {
        this.nodes = nodes;
        this.podsByUid = podsByUid;
        this.budgets = budgets;
        this.priorityClasses = priorityClasses;
        this.namespaceAnnotations = namespaceAnnotations;
        this.budgetsByPod = indexBudgets(podsByUid.values(), budgets);
    }

    /** Which budgets each bound pod spends, matched once per snapshot instead of once per request. */
    private static Map<String, List<DisruptionBudget>> indexBudgets(Collection<PodInfo> pods,
                                                                    List<DisruptionBudget> budgets) {
        Map<String, List<DisruptionBudget>> byNamespace = new HashMap<>();
        budgets.forEach(b -> byNamespace.computeIfAbsent(b.namespace(), k -> new ArrayList<>()).add(b));
        Map<String, List<DisruptionBudget>> byPod = new HashMap<>();
        for (PodInfo pod : pods) {
            for (DisruptionBudget budget : byNamespace.getOrDefault(pod.namespace(), List.of())) {
                if (pod.isAssigned() && budget.covers(pod)) {
                    byPod.computeIfAbsent(pod.uid(), k -> new ArrayList<>(1)).add(budget);
                }
            }
        }
        return byPod;
    }

    public NodeInfo node(String name) {
        return nodes.get(name);
    }

    public Collection<NodeInfo> nodes() {
        return nodes.values();
    }

    public PodInfo pod(String uid) {
        return podsByUid.get(uid);
    }

    public Collection<PodInfo> pods() {
        return podsByUid.values();
    }

    public List<DisruptionBudget> budgets() {
        return budgets;
    }

    /** The budgets evicting this bound pod would spend (see {@link DisruptionBudget#covers}). */
    public List<DisruptionBudget> budgetsCovering(PodInfo pod) {
        return budgetsByPod.getOrDefault(pod.uid(), List.of());
    }

    public PriorityClassInfo priorityClass(String name) {
        return name == null ? null : priorityClasses.get(name);
    }

    public Collection<PriorityClassInfo> priorityClasses() {
        return priorityClasses.values();
    }

    public Map<String, Map<String, String>> namespaceAnnotations() {
        return namespaceAnnotations;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects objects in any order and places pods on their nodes when built. */
    public static final class Builder {
        private final Map<String, NodeInfo> nodes = new LinkedHashMap<>();
        private final Map<String, PodInfo> pods = new LinkedHashMap<>();
        private final List<DisruptionBudget> budgets = new ArrayList<>();
        private final Map<String, PriorityClassInfo> classes = new HashMap<>();
        private final Map<String, Map<String, String>> namespaces = new HashMap<>();

        public Builder node(String name, Map<String, String> labels, Resources allocatable) {
            nodes.put(name, new NodeInfo(name, labels, allocatable, List.of(), List.of()));
            return this;
        }

        public Builder pod(PodInfo pod) {
            pods.put(pod.uid(), pod);
            return this;
        }

        public Builder budget(DisruptionBudget budget) {
            budgets.add(budget);
            return this;
        }

        public Builder priorityClass(PriorityClassInfo pc) {
            classes.put(pc.name(), pc);
            return this;
        }

        public Builder namespace(String name, Map<String, String> annotations) {
            namespaces.put(name, Map.copyOf(annotations));
            return this;
        }

        public ClusterSnapshot build() {
            Map<String, List<PodInfo>> bound = new HashMap<>();
            Map<String, List<PodInfo>> nominated = new HashMap<>();
            for (PodInfo pod : pods.values()) {
                if (pod.isAssigned()) {
                    bound.computeIfAbsent(pod.nodeName(), k -> new ArrayList<>()).add(pod);
                } else if (pod.nominatedNodeName() != null && !pod.nominatedNodeName().isEmpty()) {
                    nominated.computeIfAbsent(pod.nominatedNodeName(), k -> new ArrayList<>()).add(pod);
                }
            }
            Map<String, NodeInfo> placed = new LinkedHashMap<>();
            for (NodeInfo node : nodes.values()) {
                List<PodInfo> onNode = bound.getOrDefault(node.name(), new ArrayList<>());
                onNode.sort(Comparator.comparingLong(PodInfo::resourceVersion));
                placed.put(node.name(), node.withPods(onNode, nominated.getOrDefault(node.name(), List.of())));
            }
            return new ClusterSnapshot(Map.copyOf(placed), Map.copyOf(pods), List.copyOf(budgets),
                    Map.copyOf(classes), Map.copyOf(namespaces));
        }
    }
}
