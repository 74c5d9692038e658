package dev.makeroom.cluster;

import java.util.Map;
import java.util.function.Consumer;

/** The data of makeroom's own ConfigMap, as it changes (the queue configuration lives there). */
public interface ConfigMapFeed {

    /** For a view without a ConfigMap: never calls a listener. */
    ConfigMapFeed NONE = listener -> {
    };

    /**
     * Calls {@code listener} with the ConfigMap's data now and whenever it changes (empty when there
     * is none); listeners hear every change in order.
     */
    void onConfigData(Consumer<Map<String, String>> listener);
}
