package dev.makeroom.web;

import tools.jackson.databind.JsonNode;

/**
 * Finds a {@code null} element in any list of a Kubernetes object. The API server never stores
 * one, and fabric8 keeps it as a null entry that code reading the list would trip over, so a
 * request carrying one is refused, naming where it is.
 */
final class NullElements {

    private NullElements() {
    }

    /** The path of the first null list element below {@code node} (shown as {@code path}), or null. */
    static String find(JsonNode node, String path) {
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String element = path + "[" + i + "]";
                if (node.get(i).isNull()) {
                    return element;
                }
                String below = find(node.get(i), element);
                if (below != null) {
                    return below;
                }
            }
        } else if (node.isObject()) {
            for (String key : node.propertyNames()) {
                String below = find(node.get(key), path + "." + key);
                if (below != null) {
                    return below;
                }
            }
        }
        return null;
    }
}
