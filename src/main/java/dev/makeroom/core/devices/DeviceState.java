package dev.makeroom.core.devices;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What a snapshot knows of DRA: the newest pools, the device classes by name, the claims by
 * {@code namespace/name}, and what the allocated claims hold (worked out once per state). One
 * allocator serves every state, so compiled selectors and their results outlive a snapshot.
 * {@code notModelled}: why there is nothing to read (the server serves no DRA makeroom reads, a dump
 * holds none of its objects), null when there is; a pod with claims is then answered as not modelled.
 */
public final class DeviceState {

    private static final DeviceAllocator ALLOCATOR = new DeviceAllocator(new DeviceCel());

    public static final DeviceState NONE = new DeviceState(List.of(), Map.of(), Map.of(),
            "makeroom knows no resource.k8s.io objects here");

    private final List<DevicePool> pools;
    private final Map<String, List<DevicePool>> localPools; // node-local pools by node: most pools are
    private final List<DevicePool> sharedPools; // the rest (all nodes, a node selector), asked of each node
    private final Map<String, DeviceClass> classes;
    private final Map<String, DeviceClaim> claims;
    private final String notModelled;
    private volatile DevicesInUse inUse;
    private volatile Map<String, List<DeviceClaim>> holders;

    public DeviceState(List<DevicePool> pools, Map<String, DeviceClass> classes, Map<String, DeviceClaim> claims,
                       String notModelled) {
        this.pools = List.copyOf(pools);
        Map<String, List<DevicePool>> local = new java.util.HashMap<>();
        List<DevicePool> shared = new java.util.ArrayList<>();
        for (DevicePool pool : this.pools) {
            if (pool.nodeName() != null) {
                local.computeIfAbsent(pool.nodeName(), n -> new java.util.ArrayList<>()).add(pool);
            } else {
                shared.add(pool);
            }
        }
        this.localPools = local;
        this.sharedPools = List.copyOf(shared);
        this.classes = Map.copyOf(classes);
        this.claims = Map.copyOf(claims);
        this.notModelled = notModelled;
    }

    public List<DevicePool> pools() {
        return pools;
    }

    public Map<String, DeviceClass> classes() {
        return classes;
    }

    /** The claim {@code namespace/name}, or null. */
    public DeviceClaim claim(String namespace, String name) {
        return claims.get(namespace + "/" + name);
    }

    public Collection<DeviceClaim> claims() {
        return claims.values();
    }

    /** Why DRA is not modelled here; null when it is. */
    public String notModelled() {
        return notModelled;
    }

    /** What the allocated claims hold. */
    public DevicesInUse inUse() {
        DevicesInUse known = inUse;
        if (known == null) {
            known = DevicesInUse.of(claims.values());
            inUse = known;
        }
        return known;
    }

    /** The pools whose devices can serve pods on {@code node}, ordered as the allocator tries them. */
    public List<DevicePool> poolsOn(String node, Map<String, String> labels) {
        List<DevicePool> on = new java.util.ArrayList<>();
        for (DevicePool pool : poolsFor(node)) {
            if (pool.appliesTo(node, labels)) {
                on.add(pool);
            }
        }
        on.sort(DevicePool.ALLOCATION_ORDER);
        return on;
    }

    /** The allocated claims holding each device ({@code driver/pool/device}; admin access not counted). */
    public Map<String, List<DeviceClaim>> holders() {
        Map<String, List<DeviceClaim>> known = holders;
        if (known == null) {
            Map<String, List<DeviceClaim>> by = new java.util.HashMap<>();
            for (DeviceClaim claim : claims.values()) {
                if (claim.allocated()) {
                    for (DeviceClaim.DeviceResult result : claim.allocation().results()) {
                        if (!result.adminAccess()) {
                            by.computeIfAbsent(result.deviceKey(), k -> new java.util.ArrayList<>()).add(claim);
                        }
                    }
                }
            }
            known = by;
            holders = known;
        }
        return known;
    }

    /** Whether {@code unallocated} claims can be allocated on {@code node}, and with which devices. */
    public DeviceAllocation allocate(String node, Map<String, String> labels, List<DeviceClaim> unallocated) {
        return ALLOCATOR.allocate(node, labels, unallocated, poolsFor(node), classes, inUse());
    }

    /** The pools that may apply to {@code node}: its own, and those not bound to one node. */
    private List<DevicePool> poolsFor(String node) {
        List<DevicePool> local = localPools.getOrDefault(node, List.of());
        if (sharedPools.isEmpty()) {
            return local;
        }
        List<DevicePool> all = new java.util.ArrayList<>(local);
        all.addAll(sharedPools);
        return all;
    }
}
