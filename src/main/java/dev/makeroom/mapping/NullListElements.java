package dev.makeroom.mapping;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

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
     * them), below {@code path} ({@code ""} for none), or null.
     */
    public static String find(Object value, String path) {
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                String element = path + "[" + i + "]";
                String below = list.get(i) == null ? element : find(list.get(i), element);
                if (below != null) {
                    return below;
                }
            }
        } else if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String below = find(e.getValue(), path.isEmpty() ? String.valueOf(e.getKey()) : path + "." + e.getKey());
                if (below != null) {
                    return below;
                }
            }
        }
        return null;
    }
}
