package dev.makeroom.core.model.fast;

import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * An immutable hash map split into a fixed number of chunks, so that a changed version shares
 * every untouched chunk with the old one: an edit copies only the chunks it touches. This is what
 * lets the live view publish a new snapshot per batch of events without copying 150,000 pods.
 */
public final class ChunkedMap<K, V> {

    private final Map<K, V>[] chunks;
    private final int size;

    private ChunkedMap(Map<K, V>[] chunks, int size) {
        this.chunks = chunks;
        this.size = size;
    }

    /** {@code chunkCount} must be a power of two; about size / 500 keeps each copy small. */
    @SuppressWarnings("unchecked")
    public static <K, V> ChunkedMap<K, V> empty(int chunkCount) {
        if (Integer.bitCount(chunkCount) != 1) {
            throw new IllegalArgumentException("chunk count must be a power of two: " + chunkCount);
        }
        Map<K, V>[] chunks = new Map[chunkCount];
        java.util.Arrays.fill(chunks, Map.of());
        return new ChunkedMap<>(chunks, 0);
    }

    public static <K, V> ChunkedMap<K, V> of(Map<K, V> all, int chunkCount) {
        Editor<K, V> editor = ChunkedMap.<K, V>empty(chunkCount).edit();
        all.forEach(editor::put);
        return editor.build();
    }

    /**
     * Chunks take the top bits of a mixed hash: the HashMap inside a chunk indexes by the low bits,
     * and keys that all shared their low bits would pile up in a few of its buckets.
     */
    private int chunkOf(Object key) {
        int mixed = key.hashCode() * 0x9E3779B9;
        return chunks.length == 1 ? 0 : mixed >>> (32 - Integer.numberOfTrailingZeros(chunks.length));
    }

    public V get(Object key) {
        return key == null ? null : chunks[chunkOf(key)].get(key);
    }

    public int size() {
        return size;
    }

    /** A live read-only view over all values; iteration order is unspecified. */
    public Collection<V> values() {
        return new AbstractCollection<>() {
            @Override
            public Iterator<V> iterator() {
                return new Iterator<>() {
                    private int chunk;
                    private Iterator<V> current = Collections.emptyIterator();

                    @Override
                    public boolean hasNext() {
                        while (!current.hasNext() && chunk < chunks.length) {
                            current = chunks[chunk++].values().iterator();
                        }
                        return current.hasNext();
                    }

                    @Override
                    public V next() {
                        if (!hasNext()) {
                            throw new NoSuchElementException();
                        }
                        return current.next();
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

    public Editor<K, V> edit() {
        return new Editor<>(this);
    }

    /** Collects changes, copying each touched chunk once, and freezes them into a new map (once). */
    public static final class Editor<K, V> {
        private final Map<K, V>[] chunks;
        private final boolean[] copied;
        private final ChunkedMap<K, V> base;
        private int size;

        private Editor(ChunkedMap<K, V> base) {
            this.base = base;
            this.chunks = base.chunks.clone();
            this.copied = new boolean[chunks.length];
            this.size = base.size;
        }

        private Map<K, V> writable(Object key) {
            int c = base.chunkOf(key);
            if (!copied[c]) {
                chunks[c] = new HashMap<>(chunks[c]);
                copied[c] = true;
            }
            return chunks[c];
        }

        public Editor<K, V> put(K key, V value) {
            if (writable(key).put(key, java.util.Objects.requireNonNull(value)) == null) {
                size++;
            }
            return this;
        }

        public Editor<K, V> remove(K key) {
            if (writable(key).remove(key) != null) {
                size--;
            }
            return this;
        }

        public ChunkedMap<K, V> build() {
            for (int c = 0; c < chunks.length; c++) {
                if (copied[c]) {
                    chunks[c] = Collections.unmodifiableMap(chunks[c]);
                }
            }
            return new ChunkedMap<>(chunks, size);
        }
    }
}
