package dev.makeroom.core.devices;

import java.util.List;
import java.util.Set;

/**
 * A ResourceClaim: its requests and constraints and, once the scheduler allocated it, the devices it
 * holds ({@code allocation}; null: not allocated) and the pods it is reserved for (by uid).
 */
public record DeviceClaim(String namespace, String name, String uid, List<DeviceRequest> requests,
                          List<DeviceConstraint> constraints, Allocation allocation, Set<String> reservedFor) {

    public DeviceClaim {
        requests = List.copyOf(requests);
        constraints = List.copyOf(constraints);
        reservedFor = Set.copyOf(reservedFor);
    }

    public boolean allocated() {
        return allocation != null;
    }

    public String ref() {
        return namespace + "/" + name;
    }

    /**
     * An allocation: a result per device, and the node it is pinned to ({@code nodeName}; null where
     * its devices are not node-local, and the node selector is not {@code metadata.name In [node]}).
     */
    public record Allocation(List<DeviceResult> results, String nodeName) {
        public Allocation {
            results = List.copyOf(results);
        }
    }

    /**
     * One device of an allocation: for {@code request} (or {@code request/subrequest}), from pool
     * {@code driver/pool}. Admin access never counts as use; a result with a {@code shareId} holds a
     * share of a device several claims may hold ({@code consumed}: what of its capacity).
     */
    public record DeviceResult(String request, String driver, String pool, String device, boolean adminAccess,
                               String shareId, java.util.Map<String, DeviceQuantity> consumed) {
        public DeviceResult {
            consumed = consumed == null ? java.util.Map.of() : java.util.Map.copyOf(consumed);
        }

        public String deviceKey() {
            return driver + "/" + pool + "/" + device;
        }
    }
}
