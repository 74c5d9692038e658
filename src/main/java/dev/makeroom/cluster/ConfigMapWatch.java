package dev.makeroom.cluster;

import dev.makeroom.mapping.StringMaps;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * One ConfigMap watched on its own (the rescheduler's: the live view watches only the queues'), as a
 * {@link ConfigMapFeed}. Listeners hear its data now and on every change, empty while it does not exist.
 */
public final class ConfigMapWatch implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ConfigMapWatch.class);

    private final SharedIndexInformer<ConfigMap> informer;
    private final ConfigDataFanout data = new ConfigDataFanout();

    public ConfigMapWatch(KubernetesClient client, String namespace, String name) {
        this.informer = client.configMaps().inNamespace(namespace).withName(name).runnableInformer(0);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap map) {
                publish(map.getData());
            }

            @Override
            public void onUpdate(ConfigMap before, ConfigMap after) {
                publish(after.getData());
            }

            @Override
            public void onDelete(ConfigMap map, boolean unknownFinalState) {
                publish(null);
            }
        });
        informer.exceptionHandler((started, error) -> {
            log.debug("ConfigMap {}/{} informer failed; retrying: {}", namespace, name, error.toString());
            return true; // until it syncs, as the live view's informers
        });
        informer.start();
    }

    public ConfigMapFeed feed() {
        return data;
    }

    private void publish(Map<String, String> raw) {
        data.publish(raw == null ? Map.of() : Map.copyOf(StringMaps.clean(raw)));
    }

    @Override
    public void close() {
        informer.stop();
    }
}
