package dev.makeroom.support.property;

import java.util.LinkedHashMap;
import java.util.Map;

/** Maps of generated keys to generated values, of sizes in a range (keys as unique as the size asks). */
public final class MapGen<K, V> implements Gen<Map<K, V>> {

    private final Gen<K> keys;
    private final Gen<V> values;
    private final int minSize;
    private final int maxSize;

    MapGen(Gen<K> keys, Gen<V> values) {
        this(keys, values, 0, ListGen.DEFAULT_MAX_SIZE);
    }

    private MapGen(Gen<K> keys, Gen<V> values, int minSize, int maxSize) {
        this.keys = keys;
        this.values = values;
        this.minSize = minSize;
        this.maxSize = maxSize;
    }

    public MapGen<K, V> ofMinSize(int size) {
        return new MapGen<>(keys, values, size, Math.max(size, maxSize));
    }

    public MapGen<K, V> ofMaxSize(int size) {
        return new MapGen<>(keys, values, Math.min(minSize, size), size);
    }

    @Override
    public Map<K, V> draw(Choices choices) {
        int size = minSize + choices.sizeOffset(maxSize - minSize);
        Map<K, V> map = new LinkedHashMap<>();
        int misses = 0;
        while (map.size() < size) {
            K key = keys.draw(choices);
            if (map.containsKey(key)) {
                if (++misses > FILTER_MISSES) {
                    throw new Rejected("too few distinct keys for a map of " + size);
                }
                continue;
            }
            map.put(key, values.draw(choices));
        }
        return map;
    }
}
