package dev.makeroom.core.devices;

import java.util.List;
import java.util.Map;

/**
 * One request of a claim: {@code exactly} one way of being served, or {@code firstAvailable} ways
 * tried in order (each named {@code request/subrequest} in results and constraints). Either way a
 * {@link Way} says the class, the selectors, how many devices (ExactCount {@code count}, or All),
 * the taints tolerated and the capacity asked of each device.
 */
public record DeviceRequest(String name, List<Way> ways, boolean firstAvailable) {

    public DeviceRequest {
        ways = List.copyOf(ways);
    }

    public static DeviceRequest exactly(String name, Way way) {
        return new DeviceRequest(name, List.of(way), false);
    }

    /** One way of serving a request; {@code name} is the request's, or {@code request/subrequest}. */
    public record Way(String name, String deviceClassName, List<String> selectors, boolean all, int count,
                      boolean adminAccess, List<DeviceToleration> tolerations, Map<String, DeviceQuantity> capacity) {
        public Way {
            selectors = List.copyOf(selectors);
            tolerations = List.copyOf(tolerations);
            capacity = Map.copyOf(capacity);
        }

        /** Whether a toleration of this way lets a device with {@code taint} serve it. */
        boolean tolerates(Device.DeviceTaint taint) {
            return tolerations.stream().anyMatch(t -> t.tolerates(taint));
        }
    }

    /** A request's toleration of device taints: {@code Exists} (any value) or {@code Equal}; an empty key and effect match all. */
    public record DeviceToleration(String key, String operator, String value, String effect) {
        boolean tolerates(Device.DeviceTaint taint) {
            if (effect != null && !effect.isEmpty() && !effect.equals(taint.effect())) {
                return false;
            }
            if (key == null || key.isEmpty()) {
                return "Exists".equals(operator);
            }
            if (!key.equals(taint.key())) {
                return false;
            }
            return "Exists".equals(operator) || java.util.Objects.equals(value == null ? "" : value,
                    taint.value() == null ? "" : taint.value());
        }
    }
}
