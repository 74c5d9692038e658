package dev.makeroom.mapping;

import dev.makeroom.core.devices.Device;
import dev.makeroom.core.devices.DeviceAttribute;
import dev.makeroom.core.devices.DeviceCapacity;
import dev.makeroom.core.devices.DeviceClaim;
import dev.makeroom.core.devices.DeviceClass;
import dev.makeroom.core.devices.DeviceConstraint;
import dev.makeroom.core.devices.DeviceNodeSelector;
import dev.makeroom.core.devices.DevicePool;
import dev.makeroom.core.devices.DeviceQuantity;
import dev.makeroom.core.devices.DeviceRequest;
import dev.makeroom.core.devices.DeviceState;
import dev.makeroom.core.devices.DeviceVersion;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * DRA's objects ({@code resource.k8s.io/v1}) into the core's devices: slices merged into pools (only
 * each pool's newest generation; complete when all its slices of that generation are there; devices in
 * the order of the slices' names), device classes, and claims with their allocations. Attribute and
 * capacity names without a domain are put in the driver's. What the core does not model (binding
 * conditions, a device's own node selection, list attributes) is named on the device, so a pod that
 * could use it is answered as not modelled rather than guessed.
 */
public final class DeviceMapper {

    private DeviceMapper() {
    }

    /** The state of these objects; {@code notModelled}: why there is none to read (null when there is). */
    public static DeviceState toCore(Collection<ResourceSlice> slices, Collection<io.fabric8.kubernetes.api.model.resource.v1.DeviceClass> classes,
                                     Collection<ResourceClaim> claims, String notModelled) {
        Map<String, DeviceClass> byName = new HashMap<>();
        for (var c : classes) {
            byName.put(c.getMetadata().getName(), deviceClass(c));
        }
        Map<String, DeviceClaim> claimsByRef = new HashMap<>();
        for (ResourceClaim c : claims) {
            DeviceClaim claim = claim(c);
            claimsByRef.put(claim.ref(), claim);
        }
        return new DeviceState(pools(slices), byName, claimsByRef, notModelled);
    }

    /** The pools of {@code slices} (any number of pools: each from its newest generation's slices). */
    public static List<DevicePool> pools(Collection<ResourceSlice> slices) {
        Map<String, List<ResourceSlice>> byPool = new LinkedHashMap<>();
        for (ResourceSlice slice : slices) {
            var spec = slice.getSpec();
            if (spec == null || spec.getPool() == null || spec.getDriver() == null) {
                continue;
            }
            byPool.computeIfAbsent(spec.getDriver() + "/" + spec.getPool().getName(), k -> new ArrayList<>()).add(slice);
        }
        List<DevicePool> pools = new ArrayList<>();
        for (List<ResourceSlice> all : byPool.values()) {
            long newest = all.stream().mapToLong(s -> orZero(s.getSpec().getPool().getGeneration())).max().orElse(0);
            List<ResourceSlice> current = all.stream().filter(s -> orZero(s.getSpec().getPool().getGeneration()) == newest)
                    .sorted(Comparator.comparing(s -> s.getMetadata().getName())).toList();
            pools.add(pool(current));
        }
        return pools;
    }

    private static DevicePool pool(List<ResourceSlice> slices) {
        var first = slices.get(0).getSpec();
        long count = orZero(first.getPool().getResourceSliceCount());
        String nodeName = null;
        boolean allNodes = false;
        DeviceNodeSelector selector = null;
        List<Device> devices = new ArrayList<>();
        Map<String, Map<String, DeviceQuantity>> counters = new HashMap<>();
        for (ResourceSlice slice : slices) {
            var spec = slice.getSpec();
            boolean perDevice = Boolean.TRUE.equals(spec.getPerDeviceNodeSelection());
            if (spec.getDevices() != null && !spec.getDevices().isEmpty()) {
                nodeName = nodeName != null ? nodeName : spec.getNodeName();
                allNodes |= Boolean.TRUE.equals(spec.getAllNodes());
                selector = selector != null ? selector : nodeSelector(spec.getNodeSelector());
            }
            for (var d : list(spec.getDevices())) {
                devices.add(device(spec.getDriver(), d, perDevice));
            }
            for (var set : list(spec.getSharedCounters())) {
                Map<String, DeviceQuantity> values = new HashMap<>();
                if (set.getCounters() != null) {
                    set.getCounters().forEach((name, counter) -> values.put(name, quantity(counter.getValue())));
                }
                counters.put(set.getName(), values);
            }
        }
        boolean complete = count <= 0 || slices.size() >= count;
        return new DevicePool(first.getDriver(), first.getPool().getName(), orZero(first.getPool().getGeneration()),
                complete, devices, counters, nodeName, allNodes, selector);
    }

    private static Device device(String driver, io.fabric8.kubernetes.api.model.resource.v1.Device d, boolean perDevice) {
        List<String> unmodelled = new ArrayList<>();
        if (perDevice) {
            unmodelled.add("a node selection of its own (perDeviceNodeSelection)");
        }
        if (!list(d.getBindingConditions()).isEmpty() || Boolean.TRUE.equals(d.getBindsToNode())) {
            unmodelled.add("binding conditions");
        }
        Map<String, DeviceAttribute> attributes = new HashMap<>();
        if (d.getAttributes() != null) {
            for (var e : d.getAttributes().entrySet()) {
                DeviceAttribute value = attribute(e.getValue());
                if (value == null) {
                    unmodelled.add("attribute " + e.getKey() + " (a list, or no value)");
                } else {
                    attributes.put(Device.qualified(driver, e.getKey()), value);
                }
            }
        }
        Map<String, DeviceCapacity> capacity = new HashMap<>();
        if (d.getCapacity() != null) {
            d.getCapacity().forEach((name, c) -> capacity.put(Device.qualified(driver, name), capacity(c)));
        }
        List<Device.CounterUse> uses = new ArrayList<>();
        for (var use : list(d.getConsumesCounters())) {
            Map<String, DeviceQuantity> counters = new HashMap<>();
            if (use.getCounters() != null) {
                use.getCounters().forEach((name, counter) -> counters.put(name, quantity(counter.getValue())));
            }
            uses.add(new Device.CounterUse(use.getCounterSet(), counters));
        }
        List<Device.DeviceTaint> taints = list(d.getTaints()).stream()
                .map(t -> new Device.DeviceTaint(t.getKey(), t.getValue(), t.getEffect())).toList();
        return new Device(d.getName(), attributes, capacity, uses, taints, Boolean.TRUE.equals(d.getAllowMultipleAllocations()),
                String.join(", ", unmodelled));
    }

    private static DeviceAttribute attribute(io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute a) {
        if (a == null) {
            return null;
        }
        if (a.getInt() != null) {
            return new DeviceAttribute.IntValue(a.getInt());
        }
        if (a.getBool() != null) {
            return new DeviceAttribute.BoolValue(a.getBool());
        }
        if (a.getString() != null) {
            return new DeviceAttribute.StringValue(a.getString());
        }
        if (a.getVersion() != null && DeviceVersion.valid(a.getVersion())) {
            return new DeviceAttribute.VersionValue(DeviceVersion.parse(a.getVersion()));
        }
        return null;
    }

    private static DeviceCapacity capacity(io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity c) {
        CapacityRequestPolicy policy = c.getRequestPolicy();
        if (policy == null) {
            return DeviceCapacity.of(quantity(c.getValue()));
        }
        var range = policy.getValidRange();
        return new DeviceCapacity(quantity(c.getValue()), quantityOrNull(policy.getDefault()),
                list(policy.getValidValues()).stream().map(DeviceMapper::quantity).sorted().toList(),
                range == null ? null : quantityOrNull(range.getMin()), range == null ? null : quantityOrNull(range.getMax()),
                range == null ? null : quantityOrNull(range.getStep()));
    }

    public static DeviceClass deviceClass(io.fabric8.kubernetes.api.model.resource.v1.DeviceClass c) {
        var spec = c.getSpec();
        return new DeviceClass(c.getMetadata().getName(), spec == null ? List.of() : expressions(spec.getSelectors()),
                spec == null ? null : spec.getExtendedResourceName());
    }

    public static DeviceClaim claim(ResourceClaim c) {
        var meta = c.getMetadata();
        var devices = c.getSpec() == null ? null : c.getSpec().getDevices();
        List<DeviceRequest> requests = new ArrayList<>();
        List<DeviceConstraint> constraints = new ArrayList<>();
        if (devices != null) {
            for (var r : list(devices.getRequests())) {
                if (r.getExactly() != null) {
                    requests.add(DeviceRequest.exactly(r.getName(), way(r.getName(), r.getExactly())));
                } else {
                    List<DeviceRequest.Way> ways = list(r.getFirstAvailable()).stream()
                            .map(sub -> way(r.getName() + "/" + sub.getName(), sub)).toList();
                    requests.add(new DeviceRequest(r.getName(), ways, true));
                }
            }
            for (var k : list(devices.getConstraints())) {
                boolean distinct = k.getDistinctAttribute() != null;
                constraints.add(new DeviceConstraint(list(k.getRequests()), distinct ? k.getDistinctAttribute()
                        : k.getMatchAttribute(), distinct));
            }
        }
        DeviceClaim.Allocation allocation = null;
        Set<String> reservedFor = new HashSet<>();
        var status = c.getStatus();
        if (status != null) {
            if (status.getAllocation() != null) {
                var results = status.getAllocation().getDevices() == null ? List.<io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult>of()
                        : list(status.getAllocation().getDevices().getResults());
                List<DeviceClaim.DeviceResult> mapped = new ArrayList<>();
                for (var r : results) {
                    Map<String, DeviceQuantity> consumed = new HashMap<>();
                    if (r.getConsumedCapacity() != null) {
                        r.getConsumedCapacity().forEach((name, q) -> consumed.put(Device.qualified(r.getDriver(), name), quantity(q)));
                    }
                    mapped.add(new DeviceClaim.DeviceResult(r.getRequest(), r.getDriver(), r.getPool(), r.getDevice(),
                            Boolean.TRUE.equals(r.getAdminAccess()), r.getShareID(), consumed));
                }
                allocation = new DeviceClaim.Allocation(mapped, pinnedNode(status.getAllocation().getNodeSelector()));
            }
            for (var consumer : list(status.getReservedFor())) {
                if (consumer.getUid() != null) {
                    reservedFor.add(consumer.getUid());
                }
            }
        }
        return new DeviceClaim(meta.getNamespace(), meta.getName(), meta.getUid(), requests, constraints, allocation,
                reservedFor);
    }

    private static DeviceRequest.Way way(String name, ExactDeviceRequest r) {
        return new DeviceRequest.Way(name, r.getDeviceClassName(), expressions(r.getSelectors()),
                "All".equals(r.getAllocationMode()), r.getCount() == null ? 1 : r.getCount().intValue(),
                Boolean.TRUE.equals(r.getAdminAccess()), tolerations(r.getTolerations()),
                capacityAsked(r.getCapacity()));
    }

    private static DeviceRequest.Way way(String name, DeviceSubRequest r) {
        return new DeviceRequest.Way(name, r.getDeviceClassName(), expressions(r.getSelectors()),
                "All".equals(r.getAllocationMode()), r.getCount() == null ? 1 : r.getCount().intValue(), false,
                tolerations(r.getTolerations()), capacityAsked(r.getCapacity()));
    }

    /** Capacity asked by name: a name without a domain is matched against each device's own driver by the core. */
    private static Map<String, DeviceQuantity> capacityAsked(io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirements c) {
        Map<String, DeviceQuantity> asked = new HashMap<>();
        if (c != null && c.getRequests() != null) {
            c.getRequests().forEach((name, q) -> asked.put(name, quantity(q)));
        }
        return asked;
    }

    private static List<dev.makeroom.core.devices.DeviceRequest.DeviceToleration> tolerations(
            List<io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration> tolerations) {
        return list(tolerations).stream().map(t -> new DeviceRequest.DeviceToleration(t.getKey(),
                t.getOperator() == null ? "Equal" : t.getOperator(), t.getValue(), t.getEffect())).toList();
    }

    private static List<String> expressions(List<DeviceSelector> selectors) {
        return list(selectors).stream().filter(s -> s.getCel() != null && s.getCel().getExpression() != null)
                .map(s -> s.getCel().getExpression()).toList();
    }

    /** The node of an allocation's {@code metadata.name In [node]} selector (node-local devices), or null. */
    private static String pinnedNode(NodeSelector selector) {
        if (selector == null) {
            return null;
        }
        for (NodeSelectorTerm term : list(selector.getNodeSelectorTerms())) {
            for (NodeSelectorRequirement r : list(term.getMatchFields())) {
                if ("metadata.name".equals(r.getKey()) && "In".equals(r.getOperator()) && list(r.getValues()).size() == 1) {
                    return r.getValues().get(0);
                }
            }
        }
        return null;
    }

    private static DeviceNodeSelector nodeSelector(NodeSelector selector) {
        if (selector == null || list(selector.getNodeSelectorTerms()).isEmpty()) {
            return null;
        }
        NodeSelectorTerm term = selector.getNodeSelectorTerms().get(0);
        List<DeviceNodeSelector.Requirement> requirements = new ArrayList<>();
        for (NodeSelectorRequirement r : list(term.getMatchExpressions())) {
            requirements.add(new DeviceNodeSelector.Requirement(r.getKey(), r.getOperator(), r.getValues(), false));
        }
        for (NodeSelectorRequirement r : list(term.getMatchFields())) {
            requirements.add(new DeviceNodeSelector.Requirement(r.getKey(), r.getOperator(), r.getValues(), true));
        }
        return new DeviceNodeSelector(requirements);
    }

    private static DeviceQuantity quantity(Quantity q) {
        return DeviceQuantity.parse(q.getAmount() + (q.getFormat() == null ? "" : q.getFormat()));
    }

    private static DeviceQuantity quantityOrNull(Quantity q) {
        return q == null ? null : quantity(q);
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    private static <T> List<T> list(List<T> list) {
        return list == null ? List.of() : list;
    }
}
