package dev.makeroom.core.devices;

import java.util.List;
import java.util.Map;

/**
 * A driver's pool as the allocator uses it: only the slices of its newest generation, their devices
 * in the order of the slices' names and then as each lists them, and the counter sets its slices
 * share. {@code complete}: every slice of that generation is seen ({@code resourceSliceCount}); an
 * incomplete pool's devices are never allocated. Where it applies: {@code nodeName} (node-local),
 * every node ({@code allNodes}), or the nodes {@code nodeSelector} picks (null: none of these).
 */
public record DevicePool(String driver, String name, long generation, boolean complete, List<Device> devices,
                         Map<String, Map<String, DeviceQuantity>> counterSets, String nodeName, boolean allNodes,
                         DeviceNodeSelector nodeSelector) {

    /** The order the scheduler's allocator tries pools in: by driver, then pool name. */
    public static final java.util.Comparator<DevicePool> ALLOCATION_ORDER =
            java.util.Comparator.comparing(DevicePool::driver).thenComparing(DevicePool::name);

    public DevicePool {
        devices = List.copyOf(devices);
        counterSets = Map.copyOf(counterSets);
    }

    /** Whether this pool's devices can serve pods on {@code node} (labelled {@code labels}). */
    public boolean appliesTo(String node, Map<String, String> labels) {
        if (nodeName != null) {
            return nodeName.equals(node);
        }
        return allNodes || nodeSelector != null && nodeSelector.matches(node, labels);
    }

    /** {@code driver/pool}: the key in-use state and results name the pool by. */
    public String key() {
        return driver + "/" + name;
    }
}
