package dev.makeroom.core.devices;

import java.util.List;
import java.util.Map;

/**
 * A slice's node selector: its one term's requirements, all of which must hold; a requirement on a
 * field can only be {@code metadata.name}.
 */
public record DeviceNodeSelector(List<Requirement> requirements) {

    public DeviceNodeSelector {
        requirements = List.copyOf(requirements);
    }

    /** {@code key operator values}: In, NotIn, Exists, DoesNotExist, Gt, Lt; {@code field}: a field, not a label. */
    public record Requirement(String key, String operator, List<String> values, boolean field) {
        public Requirement {
            values = values == null ? List.of() : List.copyOf(values);
        }

        boolean holds(String node, Map<String, String> labels) {
            String value = field ? ("metadata.name".equals(key) ? node : null) : labels.get(key);
            return switch (operator) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                case "Gt", "Lt" -> value != null && !values.isEmpty() && compare(value, values.get(0), operator);
                default -> false;
            };
        }

        private static boolean compare(String value, String bound, String operator) {
            try {
                long v = Long.parseLong(value);
                long b = Long.parseLong(bound);
                return "Gt".equals(operator) ? v > b : v < b;
            } catch (NumberFormatException e) {
                return false;
            }
        }
    }

    public boolean matches(String node, Map<String, String> labels) {
        return requirements.stream().allMatch(r -> r.holds(node, labels));
    }
}
