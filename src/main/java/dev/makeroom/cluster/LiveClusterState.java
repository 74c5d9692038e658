package dev.makeroom.cluster;

import dev.makeroom.core.devices.DeviceClaim;
import dev.makeroom.core.devices.DevicePool;
import dev.makeroom.core.devices.DeviceState;
import dev.makeroom.mapping.Interning;
import dev.makeroom.mapping.PodMapper;
import dev.makeroom.mapping.DeviceMapper;
import dev.makeroom.mapping.SnapshotMapper;
import dev.makeroom.mapping.StringMaps;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.KubeVersion;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PriorityClassInfo;
import dev.makeroom.core.model.Resources;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The live view's working state, owned by the single applier thread. Events change it in place
 * and mark what they touched; {@link #publish()} turns only the touched nodes and pods into a new
 * immutable snapshot that shares everything else with the previous one.
 */
final class LiveClusterState {

    private record NodeShape(Map<String, String> labels, Resources allocatable, NodeAdmission admission) {
    }

    private final Interning interning = new Interning();
    private final EvictionMemory evictions;

    private final Map<String, NodeShape> nodes = new HashMap<>();
    private final Map<String, Map<String, PodInfo>> boundByNode = new HashMap<>();
    private final Map<String, Map<String, PodInfo>> nominatedByNode = new HashMap<>();
    private final Map<String, PodInfo> pods = new HashMap<>();
    private final Map<String, DisruptionBudget> budgets = new LinkedHashMap<>();
    private final Map<String, PriorityClassInfo> classes = new HashMap<>();
    private final Map<String, Map<String, String>> namespaces = new HashMap<>();
    private final Map<String, Integer> gangMinimums = new HashMap<>();
    private Map<String, String> configData = Map.of();
    // DRA's objects, mapped as they come; a pool depends on all its slices, so a slice's change maps
    // its pool again from them (and only it: unchanged pools stay the same objects, whose selector
    // answers the CEL cache keeps)
    private final Map<String, ResourceSlice> slices = new HashMap<>();
    private final Map<String, Set<String>> slicesByPool = new HashMap<>();
    private final Map<String, DevicePool> pools = new HashMap<>();
    private final Set<String> dirtyPools = new HashSet<>();
    private final Map<String, dev.makeroom.core.devices.DeviceClass> deviceClasses = new HashMap<>();
    private final Map<String, DeviceClaim> claims = new HashMap<>();
    private String devicesNotServed; // why DRA is not modelled; null while the view watches it
    private boolean devicesChanged = true;

    // what changed since the last snapshot; made anew after a large change (the first sync), whose
    // tables, kept by clear(), every later publish walked bucket by bucket (8,192 at 5,000 nodes)
    private static final int SMALL_CHANGE = 64;
    private Set<String> dirtyNodes = new HashSet<>();
    private Map<String, PodInfo> changedPods = new HashMap<>(); // null value: removed
    private boolean budgetsChanged;
    private boolean classesChanged;
    private boolean namespacesChanged;
    private boolean gangMinimumsChanged;
    private Set<String> gangSystems = Set.of(); // of the PodGroup kinds watched
    private boolean gangSystemsChanged;

    private ClusterSnapshot snapshot = ClusterSnapshot.EMPTY;
    private boolean versionChanged;
    private KubeVersion pendingVersion;

    LiveClusterState(EvictionMemory evictions) {
        this.evictions = evictions;
    }

    void apply(ClusterEvent event) {
        Object o = event.payload();
        switch (event.kind()) {
            case NODE -> applyNode((Node) o, event.deleted());
            case POD -> applyPod(o instanceof LeanPod lean ? lean : LeanPod.of((Pod) o), event.deleted());
            case PDB -> applyBudget((PodDisruptionBudget) o, event.deleted());
            case PRIORITY_CLASS -> applyClass((PriorityClass) o, event.deleted());
            case NAMESPACE -> applyNamespace((Namespace) o, event.deleted());
            case CONFIG_MAP -> configData = event.deleted() ? Map.of()
                    : Map.copyOf(StringMaps.clean(((ConfigMap) o).getData()));
            case POD_GROUP -> applyPodGroup((PodGroupMinimum) o, event.deleted());
            case RESOURCE_SLICE -> applySlice((ResourceSlice) o, event.deleted());
            case DEVICE_CLASS -> applyDeviceClass((DeviceClass) o, event.deleted());
            case RESOURCE_CLAIM -> applyClaim((ResourceClaim) o, event.deleted());
        }
    }

    private void applySlice(ResourceSlice slice, boolean deleted) {
        String name = slice.getMetadata().getName();
        ResourceSlice before = slices.remove(name);
        if (before != null) {
            forgetSlice(poolOf(before), name);
        }
        String pool = poolOf(slice);
        if (!deleted && pool != null) {
            slices.put(name, slice);
            slicesByPool.computeIfAbsent(pool, k -> new HashSet<>()).add(name);
            dirtyPools.add(pool);
        }
        devicesChanged = true;
    }

    private void forgetSlice(String pool, String name) {
        if (pool == null) {
            return;
        }
        Set<String> names = slicesByPool.get(pool);
        if (names != null && names.remove(name) && names.isEmpty()) {
            slicesByPool.remove(pool);
        }
        dirtyPools.add(pool);
    }

    /** {@code driver/pool}, or null for a slice without them (deleted ones come with metadata only). */
    private static String poolOf(ResourceSlice slice) {
        var spec = slice.getSpec();
        return spec == null || spec.getPool() == null || spec.getDriver() == null ? null
                : spec.getDriver() + "/" + spec.getPool().getName();
    }

    private void applyDeviceClass(DeviceClass deviceClass, boolean deleted) {
        if (deleted) {
            deviceClasses.remove(deviceClass.getMetadata().getName());
        } else {
            deviceClasses.put(deviceClass.getMetadata().getName(), DeviceMapper.deviceClass(deviceClass));
        }
        devicesChanged = true;
    }

    private void applyClaim(ResourceClaim claim, boolean deleted) {
        String ref = claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName();
        if (deleted) {
            claims.remove(ref);
        } else {
            claims.put(ref, DeviceMapper.claim(claim));
        }
        devicesChanged = true;
    }

    /** The devices of the objects seen: only the pools whose slices changed are mapped again. */
    private DeviceState devices() {
        for (String pool : dirtyPools) {
            Set<String> names = slicesByPool.getOrDefault(pool, Set.of());
            List<DevicePool> mapped = DeviceMapper.pools(names.stream().map(slices::get).toList());
            if (mapped.isEmpty()) {
                pools.remove(pool);
            } else {
                pools.put(pool, mapped.get(0));
            }
        }
        dirtyPools.clear();
        return new DeviceState(new ArrayList<>(pools.values()), deviceClasses, claims, null);
    }

    /** DRA is not modelled on this server: pods with claims are answered so, saying {@code why}. */
    void devicesNotServed(String why) {
        devicesNotServed = why;
        devicesChanged = true;
    }

    private void applyNode(Node node, boolean deleted) {
        String name = interning.string(node.getMetadata().getName());
        if (deleted) {
            nodes.remove(name);
        } else {
            nodes.put(name, new NodeShape(interning.labels(node.getMetadata().getLabels()),
                    SnapshotMapper.allocatable(node), SnapshotMapper.admission(node)));
        }
        dirtyNodes.add(name);
    }

    private void applyPod(LeanPod lean, boolean deleted) {
        PodInfo info = lean.info();
        if (lean.priorityFromClass() && info.priorityClassName() != null) {
            PriorityClassInfo pc = classes.get(info.priorityClassName());
            if (pc != null) {
                info = info.toBuilder().priority(pc.value()).build();
            }
        }
        info = PodMapper.intern(info, interning);
        if (lean.kubeletEviction() && info.controller() != null && info.isAssigned()) {
            evictions.recordEviction(info.controller().uid(), info.nodeName());
        }
        remove(info.uid());
        if (!deleted && !lean.terminal()) {
            add(info);
        }
    }

    private void remove(String uid) {
        PodInfo old = pods.remove(uid);
        if (old == null) {
            return;
        }
        changedPods.put(uid, null);
        if (old.isAssigned()) {
            detach(boundByNode, old.nodeName(), uid);
        } else if (old.nominatedNodeName() != null) {
            detach(nominatedByNode, old.nominatedNodeName(), uid);
        }
    }

    private void detach(Map<String, Map<String, PodInfo>> byNode, String node, String uid) {
        Map<String, PodInfo> onNode = byNode.get(node);
        if (onNode != null && onNode.remove(uid) != null) {
            dirtyNodes.add(node);
            if (onNode.isEmpty()) {
                byNode.remove(node);
            }
        }
    }

    private void add(PodInfo info) {
        pods.put(info.uid(), info);
        changedPods.put(info.uid(), info);
        if (info.isAssigned()) {
            boundByNode.computeIfAbsent(info.nodeName(), k -> new HashMap<>()).put(info.uid(), info);
            dirtyNodes.add(info.nodeName());
        } else if (info.nominatedNodeName() != null && !info.nominatedNodeName().isEmpty()) {
            nominatedByNode.computeIfAbsent(info.nominatedNodeName(), k -> new HashMap<>()).put(info.uid(), info);
            dirtyNodes.add(info.nominatedNodeName());
        }
    }

    private void applyBudget(PodDisruptionBudget pdb, boolean deleted) {
        String key = pdb.getMetadata().getNamespace() + "/" + pdb.getMetadata().getName();
        if (deleted) {
            budgets.remove(key);
        } else {
            budgets.put(key, SnapshotMapper.budget(pdb));
        }
        budgetsChanged = true;
    }

    private void applyClass(PriorityClass pc, boolean deleted) {
        if (deleted) {
            classes.remove(pc.getMetadata().getName());
        } else {
            PriorityClassInfo info = SnapshotMapper.priorityClass(pc);
            classes.put(info.name(), info);
        }
        classesChanged = true;
    }

    private void applyNamespace(Namespace ns, boolean deleted) {
        if (deleted) {
            namespaces.remove(ns.getMetadata().getName());
        } else {
            namespaces.put(ns.getMetadata().getName(), Map.copyOf(StringMaps.clean(ns.getMetadata().getAnnotations())));
        }
        namespacesChanged = true;
    }

    private void applyPodGroup(PodGroupMinimum group, boolean deleted) {
        Integer before = deleted || group.minimum().isEmpty() ? gangMinimums.remove(group.gangKey())
                : gangMinimums.put(group.gangKey(), group.minimum().get());
        gangMinimumsChanged |= !Objects.equals(before, gangMinimums.get(group.gangKey()));
    }

    /**
     * The systems whose gangs' PodGroups the view watches, from the next snapshot on; whether that
     * changes what the next one holds.
     */
    boolean gangSystemsWithGroups(Set<String> watched) {
        if (watched.equals(gangSystems)) {
            return false;
        }
        gangSystems = Set.copyOf(watched);
        gangSystemsChanged = true;
        return true;
    }

    /**
     * The Kubernetes version the snapshots answer for, from the next one on (null: not known yet, unchanged);
     * whether that changes what the next one answers for.
     */
    boolean version(KubeVersion served) {
        if (served == null || served.equals(versionChanged ? pendingVersion : snapshot.version())) {
            return false;
        }
        versionChanged = true;
        pendingVersion = served;
        return true;
    }

    /** The current snapshot, rebuilt only where events touched it since the last call. */
    ClusterSnapshot publish() {
        if (dirtyNodes.isEmpty() && changedPods.isEmpty() && !budgetsChanged && !classesChanged && !namespacesChanged
                && !gangMinimumsChanged && !gangSystemsChanged && !versionChanged && !devicesChanged) {
            return snapshot;
        }
        ClusterSnapshot.Change change = snapshot.change();
        if (devicesChanged) {
            change.devices(devicesNotServed != null ? new DeviceState(List.of(), Map.of(), Map.of(), devicesNotServed)
                    : devices());
            devicesChanged = false;
        }
        if (versionChanged) {
            change.version(pendingVersion);
        }
        changedPods.forEach((uid, pod) -> {
            if (pod == null) {
                change.removePod(uid);
            } else {
                change.putPod(pod);
            }
        });
        for (String name : dirtyNodes) {
            NodeShape shape = nodes.get(name);
            if (shape == null) {
                change.removeNode(name);
            } else {
                List<PodInfo> bound = new ArrayList<>(boundByNode.getOrDefault(name, Map.of()).values());
                bound.sort(NodeInfo.BIND_ORDER);
                List<PodInfo> nominated = new ArrayList<>(nominatedByNode.getOrDefault(name, Map.of()).values());
                change.putNode(new NodeInfo(name, shape.labels(), shape.allocatable(), bound, nominated, shape.admission()));
            }
        }
        if (budgetsChanged) {
            change.budgets(new ArrayList<>(budgets.values()));
        }
        if (classesChanged) {
            change.priorityClasses(Map.copyOf(classes));
        }
        if (namespacesChanged) {
            change.namespaces(Map.copyOf(namespaces));
        }
        if (gangMinimumsChanged) {
            change.gangMinimums(Map.copyOf(gangMinimums));
        }
        if (gangSystemsChanged) {
            change.gangSystemsWithGroups(gangSystems);
        }
        snapshot = change.build();
        if (dirtyNodes.size() > SMALL_CHANGE) {
            dirtyNodes = new HashSet<>();
        } else {
            dirtyNodes.clear();
        }
        if (changedPods.size() > SMALL_CHANGE) {
            changedPods = new HashMap<>();
        } else {
            changedPods.clear();
        }
        budgetsChanged = classesChanged = namespacesChanged = gangMinimumsChanged = gangSystemsChanged = versionChanged
                = false;
        return snapshot;
    }

    Map<String, String> configData() {
        return configData;
    }
}
