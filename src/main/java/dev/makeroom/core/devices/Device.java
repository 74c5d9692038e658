package dev.makeroom.core.devices;

import java.util.List;
import java.util.Map;

/**
 * One device of a pool, as its ResourceSlice lists it: attributes and capacities by fully qualified
 * name ({@code domain/id}; a name without a domain is put in the driver's own), the shared counters
 * it consumes, its taints, and whether several claims may hold it at once (then every capacity is
 * consumable). {@code unmodelled} names what of it makeroom does not model (binding conditions, a
 * node selection of its own), empty when everything is.
 */
public record Device(String name, Map<String, DeviceAttribute> attributes, Map<String, DeviceCapacity> capacity,
                     List<CounterUse> consumesCounters, List<DeviceTaint> taints, boolean allowMultipleAllocations,
                     String unmodelled) {

    /** {@code name} fully qualified: a name without a domain is in the driver's own ({@code driver/name}). */
    public static String qualified(String driver, String name) {
        return name.indexOf('/') >= 0 ? name : driver + "/" + name;
    }

    public Device {
        attributes = Map.copyOf(attributes);
        capacity = Map.copyOf(capacity);
        consumesCounters = List.copyOf(consumesCounters);
        taints = List.copyOf(taints);
        unmodelled = unmodelled == null ? "" : unmodelled;
    }

    /** What a device takes from one of its pool's counter sets. */
    public record CounterUse(String counterSet, Map<String, DeviceQuantity> counters) {
        public CounterUse {
            counters = Map.copyOf(counters);
        }
    }

    /** A taint on a device: NoSchedule and NoExecute keep requests that do not tolerate it away; None does not. */
    public record DeviceTaint(String key, String value, String effect) {
        public boolean repels() {
            return "NoSchedule".equals(effect) || "NoExecute".equals(effect);
        }
    }
}
