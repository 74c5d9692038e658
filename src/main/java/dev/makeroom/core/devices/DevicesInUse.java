package dev.makeroom.core.devices;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The devices allocated claims hold, as the scheduler counts them: every claim with an allocation,
 * whoever it is reserved for; results with admin access do not count; a result with a share id
 * holds a share of its device, and the capacity the shares consume adds up. Keys are
 * {@code driver/pool/device}.
 */
public final class DevicesInUse {

    public static final DevicesInUse NONE = new DevicesInUse(Set.of(), Map.of());

    private final Set<String> dedicated;
    private final Map<String, Map<String, DeviceQuantity>> shared;
    private final Map<String, PoolUse> byPool = new HashMap<>(); // what the allocator asks: one lookup a pool

    /** What a pool's devices are held by, by device name: whole, or shares with what they consume. */
    public record PoolUse(Set<String> dedicated, Map<String, Map<String, DeviceQuantity>> shared) {
        static final PoolUse NONE = new PoolUse(Set.of(), Map.of());

        public boolean holds(String device) {
            return dedicated.contains(device) || shared.containsKey(device);
        }
    }

    /** {@code dedicated}: devices held whole; {@code shared}: shares' consumed capacity; keyed {@code driver/pool/device}. */
    public DevicesInUse(Set<String> dedicated, Map<String, Map<String, DeviceQuantity>> shared) {
        this.dedicated = Set.copyOf(dedicated);
        this.shared = Map.copyOf(shared);
        Map<String, Set<String>> whole = new HashMap<>();
        Map<String, Map<String, Map<String, DeviceQuantity>>> shares = new HashMap<>();
        for (String key : this.dedicated) {
            int slash = key.lastIndexOf('/'); // a device's name is a DNS label: the pool is what comes before it
            whole.computeIfAbsent(key.substring(0, slash), k -> new HashSet<>()).add(key.substring(slash + 1));
        }
        this.shared.forEach((key, consumed) -> {
            int slash = key.lastIndexOf('/');
            shares.computeIfAbsent(key.substring(0, slash), k -> new HashMap<>()).put(key.substring(slash + 1), consumed);
        });
        Set<String> pools = new HashSet<>(whole.keySet());
        pools.addAll(shares.keySet());
        for (String pool : pools) {
            byPool.put(pool, new PoolUse(whole.getOrDefault(pool, Set.of()), shares.getOrDefault(pool, Map.of())));
        }
    }

    public Set<String> dedicated() {
        return dedicated;
    }

    public Map<String, Map<String, DeviceQuantity>> shared() {
        return shared;
    }

    /** What holds the devices of pool {@code driver/pool}. */
    public PoolUse inPool(String poolKey) {
        return byPool.getOrDefault(poolKey, PoolUse.NONE);
    }

    /** What {@code claims} hold (the ones without an allocation hold nothing). */
    public static DevicesInUse of(Collection<DeviceClaim> claims) {
        Set<String> dedicated = new HashSet<>();
        Map<String, Map<String, DeviceQuantity>> shared = new HashMap<>();
        for (DeviceClaim claim : claims) {
            if (!claim.allocated()) {
                continue;
            }
            for (DeviceClaim.DeviceResult result : claim.allocation().results()) {
                if (result.adminAccess()) {
                    continue;
                }
                if (result.shareId() == null) {
                    dedicated.add(result.deviceKey());
                } else {
                    Map<String, DeviceQuantity> consumed = shared.computeIfAbsent(result.deviceKey(), k -> new HashMap<>());
                    result.consumed().forEach((capacity, amount) -> consumed.merge(capacity, amount, DeviceQuantity::plus));
                }
            }
        }
        Map<String, Map<String, DeviceQuantity>> frozen = new HashMap<>();
        shared.forEach((key, consumed) -> frozen.put(key, Map.copyOf(consumed)));
        return new DevicesInUse(dedicated, frozen);
    }

    /** Whether any claim holds the device, whole or a share of it. */
    public boolean holds(String deviceKey) {
        return dedicated.contains(deviceKey) || shared.containsKey(deviceKey);
    }
}
