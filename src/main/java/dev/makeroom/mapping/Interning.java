package dev.makeroom.mapping;

import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.model.Toleration;
import com.github.benmanes.caffeine.cache.Interner;

import java.util.List;
import java.util.Map;

/**
 * Shares equal strings and label maps between pods: a cluster repeats the same namespaces, class
 * names and label sets across thousands of replicas. Weak, so unused entries go away.
 */
public final class Interning {

    private final Interner<String> strings = Interner.newWeakInterner();
    private final Interner<Map<String, String>> maps = Interner.newWeakInterner();
    private final Interner<List<Toleration>> tolerations = Interner.newWeakInterner();
    private final Interner<SchedulingConstraints> constraints = Interner.newWeakInterner();

    public String string(String s) {
        return s == null ? null : strings.intern(s);
    }

    public Map<String, String> labels(Map<String, String> labels) {
        if (labels == null || labels.isEmpty()) {
            return Map.of();
        }
        return maps.intern(Map.copyOf(StringMaps.clean(labels)));
    }

    /** Replicas share their placement constraints (most often just a node selector). */
    public SchedulingConstraints constraints(SchedulingConstraints c) {
        return c == SchedulingConstraints.NONE ? c : constraints.intern(c);
    }

    /** Most pods carry the same few tolerations (the defaults for not-ready and unreachable nodes). */
    public List<Toleration> tolerations(List<Toleration> list) {
        return list.isEmpty() ? List.of() : tolerations.intern(List.copyOf(list));
    }
}
