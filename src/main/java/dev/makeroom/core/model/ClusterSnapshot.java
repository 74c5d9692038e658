package dev.makeroom.core.model;

import dev.makeroom.core.devices.DeviceState;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One immutable, consistent view of the cluster. Every request reads exactly one snapshot, so
 * nodes, pods and budgets never disagree with each other mid-request. A changed snapshot shares
 * all unchanged nodes and most of the pod index with its predecessor ({@link #change()}).
 */
public final class ClusterSnapshot {

    static final int NODE_CHUNKS = 64;
    static final int POD_CHUNKS = 256;
    /** The most replaced nodes a snapshot remembers since its predecessors' last table was built. */
    static final int REPLACED_CARRIED_MOST = 256;

    public static final ClusterSnapshot EMPTY = builder().build();

    private final ChunkedMap<String, NodeInfo> nodes;
    private final ChunkedMap<String, PodInfo> podsByUid;
    private final List<DisruptionBudget> budgets;
    private final BudgetIndex budgetIndex;
    private final Map<String, PriorityClassInfo> priorityClasses;
    private final boolean anyClassOptsOut; // most clusters have none: then no lookup per candidate pod
    private final Map<String, Map<String, String>> namespaceAnnotations;
    private final Map<String, Integer> gangMinimums; // by Gang.key, as the gangs' own objects state them
    private final Set<String> gangSystemsWithGroups; // Gang.system of each kind of group object the view has
    private final KubeVersion version; // the scheduler version the snapshot is answered for
    private final DeviceState devices; // DRA's pools, classes and claims (none where the server serves no DRA)
    private volatile List<PodInfo> withAntiAffinity; // derived on first use, like the table
    private volatile List<PodInfo> withSpreadOrAffinity; // likewise
    private volatile List<PodInfo> inGangs; // likewise
    private volatile Map<String, List<PodInfo>> runningByGang; // derived from inGangs on first use
    private volatile Map<String, NodeInfo> withAvoidances; // derived on first use
    private volatile Map<String, NodeInfo> withReservations; // derived on first use
    private volatile Map<String, NodeInfo> withTaints; // derived on first use
    private volatile NodeTable table; // derived, built on first use: two racing builders build the same
    // until the table is built: the latest table of a predecessor and the nodes replaced since
    // (null: the node set changed, or too much did, so the table is built in full)
    private NodeTable seed;
    private Set<String> replacedSinceSeed;

    private ClusterSnapshot(ChunkedMap<String, NodeInfo> nodes, ChunkedMap<String, PodInfo> podsByUid,
                            List<DisruptionBudget> budgets, Map<String, PriorityClassInfo> priorityClasses,
                            Map<String, Map<String, String>> namespaceAnnotations, Map<String, Integer> gangMinimums,
                            Set<String> gangSystemsWithGroups, NodeTable seed, Set<String> replacedSinceSeed,
                            ClusterSnapshot predecessor, KubeVersion version, DeviceState devices) {
        this.nodes = nodes;
        this.version = version;
        this.devices = devices;
        this.seed = seed;
        this.replacedSinceSeed = replacedSinceSeed;
        this.podsByUid = podsByUid;
        this.budgets = List.copyOf(budgets);
        this.priorityClasses = Map.copyOf(priorityClasses);
        this.anyClassOptsOut = this.priorityClasses.values().stream().anyMatch(PriorityClassInfo::optedOut);
        this.namespaceAnnotations = Map.copyOf(namespaceAnnotations);
        this.gangMinimums = Map.copyOf(gangMinimums);
        this.gangSystemsWithGroups = Set.copyOf(gangSystemsWithGroups);
        // most changes are to pods: the budgets, replaced whole when they change, keep their index
        this.budgetIndex = predecessor != null && predecessor.budgets == this.budgets ? predecessor.budgetIndex
                : this.budgets.isEmpty() ? BudgetIndex.EMPTY : new BudgetIndex(this.budgets);
    }

    /** The Kubernetes version whose scheduler this snapshot is answered for ({@link KubeVersion#NEWEST_TESTED} unless told). */
    /** DRA's pools, device classes and claims ({@link DeviceState#NONE} where there are none). */
    public DeviceState devices() {
        return devices;
    }

    public KubeVersion version() {
        return version;
    }

    public NodeInfo node(String name) {
        return nodes.get(name);
    }

    public Collection<NodeInfo> nodes() {
        return nodes.values();
    }

    /** The nodes laid out flat for verbs that visit every node ({@link NodeTable}). */
    public NodeTable table() {
        NodeTable built = table;
        if (built == null) {
            NodeTable from = seed;
            Set<String> replaced = replacedSinceSeed;
            if (from != null && replaced != null) {
                List<NodeInfo> newer = new ArrayList<>(replaced.size());
                for (String name : replaced) {
                    NodeInfo node = nodes.get(name);
                    if (node == null) { // cannot happen: removals reset the chain; a full build is right anyway
                        newer = null;
                        break;
                    }
                    newer.add(node);
                }
                built = newer == null ? null : from.withReplaced(newer);
            }
            if (built == null) {
                built = NodeTable.of(nodes.values());
            }
            table = built;
            seed = null; // the predecessor's table and its nodes are not kept alive any longer
            replacedSinceSeed = null;
        }
        return built;
    }

    public PodInfo pod(String uid) {
        return podsByUid.get(uid);
    }

    /** The pod called {@code namespace/name}, or null when there is none (a scan: for questions, not verbs). */
    public PodInfo podNamed(String namespaceAndName) {
        return pods().stream().filter(p -> p.ref().toString().equals(namespaceAndName)).findFirst().orElse(null);
    }

    /** The bound pods that carry required pod anti-affinity: the only ones that can keep a newcomer away. */
    public List<PodInfo> podsWithAntiAffinity() {
        List<PodInfo> found = withAntiAffinity;
        if (found == null) {
            found = podsByUid.values().stream().filter(ClusterSnapshot::hasAntiAffinity).toList();
            withAntiAffinity = found;
        }
        return found;
    }

    /**
     * The bound pods with a topology spread constraint or required pod affinity: the only ones a move
     * elsewhere can leave worse off.
     */
    public List<PodInfo> podsWithSpreadOrAffinity() {
        List<PodInfo> found = withSpreadOrAffinity;
        if (found == null) {
            found = podsByUid.values().stream().filter(ClusterSnapshot::hasSpreadOrAffinity).toList();
            withSpreadOrAffinity = found;
        }
        return found;
    }

    /** The pods that belong to a gang, running or not. */
    public List<PodInfo> podsInGangs() {
        List<PodInfo> found = inGangs;
        if (found == null) {
            found = podsByUid.values().stream().filter(ClusterSnapshot::inGang).toList();
            inGangs = found;
        }
        return found;
    }

    /**
     * The running members (bound, not terminating) of the gang whose {@link Gang#key} is {@code key}:
     * what stops with it when it is broken.
     */
    public List<PodInfo> runningMembersOf(String key) {
        Map<String, List<PodInfo>> byGang = runningByGang;
        if (byGang == null) {
            Map<String, List<PodInfo>> built = new HashMap<>();
            for (PodInfo pod : podsInGangs()) {
                if (pod.isAssigned() && !pod.terminating()) {
                    built.computeIfAbsent(pod.gang().key(), k -> new ArrayList<>()).add(pod);
                }
            }
            byGang = built;
            runningByGang = byGang;
        }
        return byGang.getOrDefault(key, List.of());
    }

    /**
     * {@code named} with its minimum as known: the one its group object states (a PodGroup of the
     * coscheduling plugin, Volcano or the Workload API), else the least its {@code members} state.
     */
    public Gang gangAsKnown(Gang named, Collection<PodInfo> members) {
        Integer stated = gangMinimums.get(named.key());
        return stated != null ? named.withMinimum(stated) : named.withMinimumOf(members);
    }

    /**
     * Whether the gang's own object (its PodGroup) should be known: its kind is watched (or was read
     * with the snapshot) and none of that name is. A gang member asked about then waits for it: as
     * the coscheduling plugin does, and since without it makeroom cannot tell how many must start.
     */
    public boolean gangGroupMissing(Gang gang) {
        return gangSystemsWithGroups.contains(gang.system()) && !gangMinimums.containsKey(gang.key());
    }

    /** The minimums the gangs' own objects state, by {@link Gang#key}. */
    public Map<String, Integer> gangMinimums() {
        return gangMinimums;
    }

    private static boolean inGang(PodInfo pod) {
        return pod.gang() != null;
    }

    private static boolean hasAntiAffinity(PodInfo pod) {
        return pod.isAssigned() && !pod.antiAffinity().isEmpty();
    }

    private static boolean hasSpreadOrAffinity(PodInfo pod) {
        return pod.isAssigned() && (!pod.constraints().spread().isEmpty() || !pod.constraints().affinity().isEmpty());
    }

    /** Every pod makeroom tracks: bound, nominated and pending. */

    public Collection<PodInfo> pods() {
        return podsByUid.values();
    }

    /** The nodes whose avoid list names any controller, by name (most clusters: none). */
    public Map<String, NodeInfo> nodesWithAvoidances() {
        Map<String, NodeInfo> found = withAvoidances;
        if (found == null) {
            indexAdmissions();
            found = withAvoidances;
        }
        return found;
    }

    /** The nodes holding room for a pending pod (a {@link Reservation}), by name; expired ones included. */
    public Map<String, NodeInfo> nodesWithReservations() {
        Map<String, NodeInfo> found = withReservations;
        if (found == null) {
            indexAdmissions();
            found = withReservations;
        }
        return found;
    }

    /**
     * The nodes carrying any taint, by name (most clusters: a few): where makeroom looks for the nodes it
     * keeps out of service, without a pass over every node in the preempt verb's path.
     */
    public Map<String, NodeInfo> nodesWithTaints() {
        Map<String, NodeInfo> found = withTaints;
        if (found == null) {
            indexAdmissions();
            found = withTaints;
        }
        return found;
    }

    /** The node indexes in one pass over the nodes (most have the open admission and land in none). */
    private void indexAdmissions() {
        Map<String, NodeInfo> avoiding = new HashMap<>();
        Map<String, NodeInfo> holding = new HashMap<>();
        Map<String, NodeInfo> tainted = new HashMap<>();
        for (NodeInfo node : nodes.values()) {
            NodeAdmission admission = node.admission();
            if (admission == NodeAdmission.OPEN) { // the mappers share this one value for every plain node
                continue;
            }
            if (!admission.avoided().isEmpty()) {
                avoiding.put(node.name(), node);
            }
            if (!admission.reservations().isEmpty()) {
                holding.put(node.name(), node);
            }
            if (!admission.taints().isEmpty()) {
                tainted.put(node.name(), node);
            }
        }
        withTaints = Map.copyOf(tainted);
        withReservations = Map.copyOf(holding);
        withAvoidances = Map.copyOf(avoiding);
    }

    public List<DisruptionBudget> budgets() {
        return budgets;
    }

    /** The budgets evicting this pod would spend (see {@link DisruptionBudget#covers}). */
    public List<DisruptionBudget> budgetsCovering(PodInfo pod) {
        return budgetIndex.covering(pod);
    }

    public PriorityClassInfo priorityClass(String name) {
        return name == null ? null : priorityClasses.get(name);
    }

    /** Whether any PriorityClass opts its pods out of preemption (most clusters: none, and no lookup is needed). */
    public boolean anyClassOptsOut() {
        return anyClassOptsOut;
    }

    /** Whether the PriorityClass named {@code name} opts its pods out of preemption. */
    public boolean classOptsOut(String name) {
        if (!anyClassOptsOut || name == null) {
            return false;
        }
        PriorityClassInfo pc = priorityClasses.get(name);
        return pc != null && pc.optedOut();
    }

    /** The value of a PriorityClass by name, or null when there is no such class (for pods without a resolved priority). */
    public Integer priorityValue(String className) {
        PriorityClassInfo pc = priorityClass(className);
        return pc == null ? null : pc.value();
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

    /** Starts a new version of this snapshot; only what is changed is copied. */
    public Change change() {
        return new Change(this);
    }

    /**
     * Edits to a snapshot. Nodes are replaced whole (the caller builds the new {@link NodeInfo}
     * with its pods); pods are indexed by UID; budgets, classes and namespaces are replaced whole.
     */
    public static final class Change {
        private final ClusterSnapshot base;
        private final ChunkedMap.Editor<String, NodeInfo> nodes;
        private final ChunkedMap.Editor<String, PodInfo> pods;
        private List<DisruptionBudget> budgets;
        private Map<String, PriorityClassInfo> classes;
        private Map<String, Map<String, String>> namespaces;
        private Map<String, Integer> gangMinimums;
        private Set<String> gangSystems;
        private KubeVersion version;
        private DeviceState devices;
        private final Set<String> replacedNodes = new HashSet<>();
        private final Set<String> removedNodes = new HashSet<>();
        private final Map<String, PodInfo> changedPods = new HashMap<>(); // null: removed
        private boolean nodeSetChanged;

        private Change(ClusterSnapshot base) {
            this.base = base;
            this.nodes = base.nodes.edit();
            this.pods = base.podsByUid.edit();
            this.budgets = base.budgets;
            this.classes = base.priorityClasses;
            this.namespaces = base.namespaceAnnotations;
            this.gangMinimums = base.gangMinimums;
            this.gangSystems = base.gangSystemsWithGroups;
            this.version = base.version;
            this.devices = base.devices;
        }

        public Change putNode(NodeInfo node) {
            nodeSetChanged |= base.nodes.get(node.name()) == null;
            replacedNodes.add(node.name());
            removedNodes.remove(node.name());
            nodes.put(node.name(), node);
            return this;
        }

        public Change removeNode(String name) {
            nodeSetChanged = true;
            replacedNodes.remove(name);
            removedNodes.add(name);
            nodes.remove(name);
            return this;
        }

        public Change putPod(PodInfo pod) {
            pods.put(pod.uid(), pod);
            changedPods.put(pod.uid(), pod);
            return this;
        }

        public Change removePod(String uid) {
            pods.remove(uid);
            changedPods.put(uid, null);
            return this;
        }

        /**
         * A derived list of the base's carried forward ({@code before}, null when the base never derived
         * it): the changed pods taken out and put back where {@code keep} says, so no request has to scan
         * every pod again.
         */
        private List<PodInfo> carried(List<PodInfo> before, java.util.function.Predicate<PodInfo> keep) {
            if (before == null) {
                return null;
            }
            List<PodInfo> after = new ArrayList<>(before.size());
            for (PodInfo pod : before) {
                if (!changedPods.containsKey(pod.uid())) {
                    after.add(pod);
                }
            }
            for (PodInfo pod : changedPods.values()) {
                if (pod != null && keep.test(pod)) {
                    after.add(pod);
                }
            }
            return List.copyOf(after);
        }

        public Change budgets(List<DisruptionBudget> all) {
            budgets = all;
            return this;
        }

        public Change priorityClasses(Map<String, PriorityClassInfo> all) {
            classes = all;
            return this;
        }

        public Change namespaces(Map<String, Map<String, String>> annotationsByNamespace) {
            namespaces = annotationsByNamespace;
            return this;
        }

        public Change gangMinimums(Map<String, Integer> byGang) {
            gangMinimums = byGang;
            return this;
        }

        public Change gangSystemsWithGroups(Set<String> systems) {
            gangSystems = systems;
            return this;
        }

        public Change version(KubeVersion served) {
            version = served;
            return this;
        }

        /** DRA's devices, classes and claims, replaced whole. */
        public Change devices(DeviceState state) {
            devices = state;
            return this;
        }

        /**
         * A node index of the base's carried forward ({@code before}, null when the base never derived it):
         * only the nodes replaced or removed here can enter or leave it, so the extender's first call on
         * each new snapshot does not walk every node again (a binding makes a new snapshot).
         */
        private Map<String, NodeInfo> carried(Map<String, NodeInfo> before, ChunkedMap<String, NodeInfo> built,
                                              java.util.function.Predicate<NodeAdmission> has) {
            if (before == null) {
                return null;
            }
            Map<String, NodeInfo> after = null;
            for (String name : replacedNodes) {
                NodeInfo node = built.get(name);
                boolean in = node != null && has.test(node.admission());
                if (in || before.containsKey(name)) {
                    after = after == null ? new HashMap<>(before) : after;
                    if (in) {
                        after.put(name, node);
                    } else {
                        after.remove(name);
                    }
                }
            }
            for (String name : removedNodes) {
                if (before.containsKey(name)) {
                    after = after == null ? new HashMap<>(before) : after;
                    after.remove(name);
                }
            }
            return after == null ? before : Map.copyOf(after);
        }

        public ClusterSnapshot build() {
            ChunkedMap<String, NodeInfo> built = nodes.build();
            NodeTable baseTable = base.table; // read once each: a request may be building the base's table now
            NodeTable baseSeed = base.seed;
            Set<String> baseReplaced = base.replacedSinceSeed;
            NodeTable seed = baseTable != null ? baseTable : baseSeed;
            Set<String> replaced = null;
            if (!nodeSetChanged && seed != null && (baseTable != null || baseReplaced != null)) {
                replaced = new HashSet<>(replacedNodes);
                if (baseTable == null) {
                    replaced.addAll(baseReplaced);
                }
                // past 256 replaced nodes, building the table whole once is as cheap, and the set carried from
                // snapshot to snapshot (while no call reads a table: preempt alone registered) stays bounded
                if (replaced.size() > Math.min(built.size() / 4, REPLACED_CARRIED_MOST)) {
                    replaced = null;
                }
            }
            ClusterSnapshot next = new ClusterSnapshot(built, pods.build(), budgets, classes, namespaces, gangMinimums,
                    gangSystems, replaced == null ? null : seed, replaced, base, version, devices);
            next.withAntiAffinity = carried(base.withAntiAffinity, ClusterSnapshot::hasAntiAffinity);
            next.withSpreadOrAffinity = carried(base.withSpreadOrAffinity, ClusterSnapshot::hasSpreadOrAffinity);
            next.inGangs = carried(base.inGangs, ClusterSnapshot::inGang);
            next.withAvoidances = carried(base.withAvoidances, built, a -> !a.avoided().isEmpty());
            next.withReservations = carried(base.withReservations, built, a -> !a.reservations().isEmpty());
            next.withTaints = carried(base.withTaints, built, a -> !a.taints().isEmpty());
            return next;
        }
    }

    /** Collects objects in any order and places pods on their nodes when built. */
    public static final class Builder {
        private final Map<String, NodeInfo> nodes = new LinkedHashMap<>();
        private final Map<String, PodInfo> pods = new LinkedHashMap<>();
        private final List<DisruptionBudget> budgets = new ArrayList<>();
        private final Map<String, PriorityClassInfo> classes = new HashMap<>();
        private final Map<String, Map<String, String>> namespaces = new HashMap<>();
        private final Map<String, Integer> gangMinimums = new HashMap<>();
        private final Set<String> gangSystems = new HashSet<>();
        private KubeVersion version = KubeVersion.NEWEST_TESTED;
        private DeviceState devices = DeviceState.NONE;

        public Builder version(KubeVersion served) {
            version = served;
            return this;
        }

        /** DRA's devices, classes and claims. */
        public Builder devices(DeviceState state) {
            devices = state;
            return this;
        }

        public Builder node(String name, Map<String, String> labels, Resources allocatable) {
            return node(name, labels, allocatable, NodeAdmission.OPEN);
        }

        public Builder node(String name, Map<String, String> labels, Resources allocatable, NodeAdmission admission) {
            nodes.put(name, new NodeInfo(name, labels, allocatable, List.of(), List.of(), admission));
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

        /** The minimum a gang's own object states ({@link Gang#key} names the gang). */
        public Builder gangMinimum(String gangKey, int minimum) {
            gangMinimums.put(gangKey, minimum);
            return this;
        }

        /** The snapshot holds every group object of the gangs {@code system} forms ({@link Gang#system}). */
        public Builder gangSystemWithGroups(String system) {
            gangSystems.add(system);
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
                onNode.sort(NodeInfo.BIND_ORDER);
                placed.put(node.name(), node.withPods(onNode, nominated.getOrDefault(node.name(), List.of())));
            }
            return new ClusterSnapshot(ChunkedMap.of(placed, NODE_CHUNKS), ChunkedMap.of(pods, POD_CHUNKS), budgets,
                    classes, namespaces, gangMinimums, gangSystems, null, null, null, version, devices);
        }
    }
}
