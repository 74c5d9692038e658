package dev.makeroom.cluster;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A ConfigMap's data handed to its listeners: each hears the current data when it registers and every
 * change after, in order (registration and publication share one lock); a listener that fails is
 * logged and does not keep the others from hearing.
 */
final class ConfigDataFanout implements ConfigMapFeed {

    private static final Logger log = LoggerFactory.getLogger(ConfigDataFanout.class);

    private final List<Consumer<Map<String, String>>> listeners = new ArrayList<>();
    private volatile Map<String, String> data = Map.of();

    @Override
    public synchronized void onConfigData(Consumer<Map<String, String>> listener) {
        listeners.add(listener);
        tell(listener, data);
    }

    /** Publishes {@code next} unless it is the very map published last (nothing changed). */
    synchronized void publish(Map<String, String> next) {
        if (next == data) {
            return;
        }
        data = next;
        listeners.forEach(listener -> tell(listener, next));
    }

    /** The data as last published (empty before any). */
    Map<String, String> data() {
        return data;
    }

    private static void tell(Consumer<Map<String, String>> listener, Map<String, String> data) {
        try {
            listener.accept(data);
        } catch (RuntimeException e) {
            log.error("a ConfigMap listener failed", e);
        }
    }
}
