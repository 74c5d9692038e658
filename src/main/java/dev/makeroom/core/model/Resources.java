package dev.makeroom.core.model;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable amount per resource name, in integer base units: cpu in millicores, memory and
 * storage in bytes, everything else (extended resources, pods) in whole units. Absent means zero.
 */
public final class Resources {
    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String PODS = "pods";

    public static final Resources NONE = new Resources(new String[0], new long[0]);

    private final String[] names; // sorted, unique
    private final long[] values;
    // cpu and memory also held here: a preemption reads them for every pod of every candidate node,
    // and from a cold heap each array is one more load to wait for
    private final long cpu;
    private final long memory;

    private Resources(String[] names, long[] values) {
        this.names = names;
        this.values = values;
        long cpuValue = 0;
        long memoryValue = 0;
        for (int i = 0; i < names.length; i++) {
            cpuValue = CPU.equals(names[i]) ? values[i] : cpuValue;
            memoryValue = MEMORY.equals(names[i]) ? values[i] : memoryValue;
        }
        this.cpu = cpuValue;
        this.memory = memoryValue;
    }

    public static Resources of(Map<String, Long> amounts) {
        String[] names = new String[amounts.size()];
        long[] values = new long[amounts.size()];
        int n = 0;
        for (Map.Entry<String, Long> e : amounts.entrySet()) {
            Long value = e.getValue();
            if (value == null || value == 0) {
                continue;
            }
            // insertion sort: resource lists are short, and this runs on hot paths
            int at = n++;
            while (at > 0 && names[at - 1].compareTo(e.getKey()) > 0) {
                names[at] = names[at - 1];
                values[at] = values[at - 1];
                at--;
            }
            names[at] = e.getKey().intern(); // shared names let get() match by identity first
            values[at] = value;
        }
        return n == 0 ? NONE : new Resources(Arrays.copyOf(names, n), Arrays.copyOf(values, n));
    }

    /**
     * The amounts {@code values[i]} of {@code names[i]}, all positive, taking both arrays over (they
     * are sorted in place): for hot paths that know their amounts, without a map in between. The
     * names must be interned already, as the names of another {@code Resources} and the constants
     * here are.
     */
    public static Resources ofArrays(String[] names, long[] values) {
        for (int i = 1; i < names.length; i++) { // insertion sort: resource lists are short
            String name = names[i];
            long value = values[i];
            int at = i;
            while (at > 0 && names[at - 1].compareTo(name) > 0) {
                names[at] = names[at - 1];
                values[at] = values[at - 1];
                at--;
            }
            names[at] = name;
            values[at] = value;
        }
        return names.length == 0 ? NONE : new Resources(names, values);
    }

    /** Convenience for tests and examples: {@code Resources.of("cpu", 1000, "memory", 1 << 20)}. */
    public static Resources of(Object... nameValuePairs) {
        Map<String, Long> map = new TreeMap<>();
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            map.merge((String) nameValuePairs[i], ((Number) nameValuePairs[i + 1]).longValue(), Long::sum);
        }
        return of(map);
    }

    public long get(String name) {
        if (name == CPU) { // the constants, or the same names interned
            return cpu;
        }
        if (name == MEMORY) {
            return memory;
        }
        for (int i = 0; i < names.length; i++) {
            if (names[i] == name) { // names are interned: most lookups end here without comparing text
                return values[i];
            }
        }
        int i = Arrays.binarySearch(names, name);
        return i >= 0 ? values[i] : 0L;
    }

    public boolean isEmpty() {
        return names.length == 0;
    }

    public int size() {
        return names.length;
    }

    public String name(int index) {
        return names[index];
    }

    public long value(int index) {
        return values[index];
    }

    public Resources plus(Resources other) {
        return combine(other, 1);
    }

    public Resources minus(Resources other) {
        return combine(other, -1);
    }

    /** Per-name maximum of the two. */
    public Resources max(Resources other) {
        Map<String, Long> result = toMap();
        for (int i = 0; i < other.names.length; i++) {
            result.merge(other.names[i], other.values[i], Math::max);
        }
        return of(result);
    }

    private Resources combine(Resources other, int sign) {
        if (other.isEmpty()) {
            return this;
        }
        Map<String, Long> result = toMap();
        for (int i = 0; i < other.names.length; i++) {
            result.merge(other.names[i], sign * other.values[i], Long::sum);
        }
        return of(result);
    }

    public Map<String, Long> toMap() {
        Map<String, Long> map = new TreeMap<>();
        for (int i = 0; i < names.length; i++) {
            map.put(names[i], values[i]);
        }
        return map;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Resources r && Arrays.equals(names, r.names) && Arrays.equals(values, r.values);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(names) + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return toMap().toString();
    }
}
