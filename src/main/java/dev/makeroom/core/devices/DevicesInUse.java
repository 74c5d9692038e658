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
public record DevicesInUse(Set<String> dedicated, Map<String, Map<String, DeviceQuantity>> shared) {

    public static final DevicesInUse NONE = new DevicesInUse(Set.of(), Map.of());

    public DevicesInUse {
        dedicated = Set.copyOf(dedicated);
        shared = Map.copyOf(shared);
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
