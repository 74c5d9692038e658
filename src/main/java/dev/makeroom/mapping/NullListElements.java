package dev.makeroom.mapping;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * Where a Kubernetes object holds a null list element. The API server never stores one; fabric8
 * keeps it as a null entry that code reading the list trips over. Used to refuse a request carrying
 * one and to say what is wrong with an object in a snapshot file that could not be read.
 */
public final class NullListElements {

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private NullListElements() {
    }

    /** The path of the first null list element ({@code spec.containers[0]}), or null. */
    static String in(HasMetadata object) {
        try {
            return find(SERIALIZATION.convertValue(object, Map.class), "");
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The path of the first null list element in {@code value} (maps and lists as a JSON parser makes
     * them), below {@code path} ({@code ""} for none), or null. The path is written only when one is
     * found: every pod the scheduler sends is walked, and nearly all hold none.
     */
    public static String find(Object value, String path) {
        Deque<Object> trail = new ArrayDeque<>();
        if (!found(value, trail)) {
            return null;
        }
        StringBuilder where = new StringBuilder(path);
        for (Object step : trail) {
            if (step instanceof Integer index) {
                where.append('[').append(index).append(']');
            } else {
                where.append(where.isEmpty() ? "" : ".").append(step);
            }
        }
        return where.toString();
    }

    /** Whether {@code value} holds a null list element; if so {@code trail} holds the keys and indexes down to it. */
    private static boolean found(Object value, Deque<Object> trail) {
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                trail.addLast(i);
                if (list.get(i) == null || found(list.get(i), trail)) {
                    return true;
                }
                trail.removeLast();
            }
        } else if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                trail.addLast(String.valueOf(e.getKey()));
                if (found(e.getValue(), trail)) {
                    return true;
                }
                trail.removeLast();
            }
        }
        return false;
    }
}
