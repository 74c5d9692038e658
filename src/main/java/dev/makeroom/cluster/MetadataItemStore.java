package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;

import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The informer's own cache, holding of each object only what fabric8 needs to tell an update from
 * a resync and to report deletions: namespace/name (the key), resourceVersion and UID. makeroom's
 * state keeps what decisions read; full objects at 150,000 pods would cost gigabytes. Unlike
 * fabric8's {@code ReducedStateItemStore} it reads the fields straight from the metadata instead of
 * converting every object to a map, which doubled the cost of a first sync.
 *
 * <p>Objects handed back (the old object of an update, a resync, a delete whose final state is
 * unknown) are skeletons carrying just those fields; {@link EnqueueingHandler} uses them only so.
 */
final class MetadataItemStore<T extends HasMetadata> implements ItemStore<T> {

    private record Kept(String resourceVersion, String uid) {
    }

    private final Class<T> type;
    private final ConcurrentHashMap<String, Kept> kept = new ConcurrentHashMap<>();

    MetadataItemStore(Class<T> type) {
        this.type = type;
    }

    @Override
    public String getKey(T obj) {
        return Cache.metaNamespaceKeyFunc(obj);
    }

    @Override
    public T put(String key, T obj) {
        ObjectMeta meta = obj.getMetadata();
        return skeleton(key, kept.put(key, new Kept(meta == null ? null : meta.getResourceVersion(),
                meta == null ? null : meta.getUid())));
    }

    @Override
    public T remove(String key) {
        return skeleton(key, kept.remove(key));
    }

    @Override
    public Stream<String> keySet() {
        return kept.keySet().stream();
    }

    @Override
    public Stream<T> values() {
        return kept.entrySet().stream().map(e -> skeleton(e.getKey(), e.getValue()));
    }

    @Override
    public int size() {
        return kept.size();
    }

    @Override
    public T get(String key) {
        return skeleton(key, kept.get(key));
    }

    @Override
    public boolean isFullState() {
        return false;
    }

    private T skeleton(String key, Kept fields) {
        if (fields == null) {
            return null;
        }
        int slash = key.indexOf('/');
        ObjectMeta meta = new ObjectMeta();
        meta.setNamespace(slash < 0 ? null : key.substring(0, slash));
        meta.setName(slash < 0 ? key : key.substring(slash + 1));
        meta.setResourceVersion(fields.resourceVersion());
        meta.setUid(fields.uid());
        try {
            T object = type.getDeclaredConstructor().newInstance();
            object.setMetadata(meta);
            return object;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make an empty " + type.getSimpleName(), e);
        }
    }
}
