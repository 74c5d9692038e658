package dev.makeroom.core.model;

import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * An immutable hash map split into chunks, so that a changed version shares every untouched chunk
 * with the old one: an edit copies only the chunks it touches. This is what lets the live view
 * publish a new snapshot per batch of events without copying 150,000 pods.
 *
 * <p>The number of chunks grows with the map ({@link #chunksFor}: at most {@link #MOST_PER_CHUNK}
 * entries a chunk on average), so an edit copies about as much at 15,000 nodes as at 500: with a fixed
 * number, a binding's copy grew with the cluster. Growing rehashes every entry once per doubling,
 * which over the insertions that caused it is a constant cost each.
 */
public final class ChunkedMap<K, V> {

    /** The one empty chunk every empty map starts from: copied before any write, so never written. */
    @SuppressWarnings("rawtypes")
    private static final HashMap EMPTY_CHUNK = new HashMap<>(0);

    // HashMaps, not read-only wrappers: a lookup runs for every victim the scheduler names, and the
    // wrapper was one more object to load from a cold heap. No chunk is written once built.
    private final HashMap<K, V>[] chunks;
    private final int size;

    private ChunkedMap(HashMap<K, V>[] chunks, int size) {
        this.chunks = chunks;
        this.size = size;
    }

    /** {@code chunkCount} must be a power of two; about size / 500 keeps each copy small. */
    @SuppressWarnings("unchecked")
    public static <K, V> ChunkedMap<K, V> empty(int chunkCount) {
        if (Integer.bitCount(chunkCount) != 1) {
            throw new IllegalArgumentException("chunk count must be a power of two: " + chunkCount);
        }
        HashMap<K, V>[] chunks = new HashMap[chunkCount];
        java.util.Arrays.fill(chunks, EMPTY_CHUNK);
        return new ChunkedMap<>(chunks, 0);
    }

    /** {@code chunkCount}: the fewest chunks (a power of two); more when the map is large ({@link #chunksFor}). */
    public static <K, V> ChunkedMap<K, V> of(Map<K, V> all, int chunkCount) {
        Editor<K, V> editor = ChunkedMap.<K, V>empty(Math.max(chunkCount, chunksFor(all.size()))).edit();
        all.forEach(editor::put);
        return editor.build();
    }

    /** Above this many entries a chunk on average, the map doubles its chunks. */
    static final int MOST_PER_CHUNK = 128;

    /** The chunks a map of {@code size} entries needs: a power of two, about 64 entries each. */
    static int chunksFor(int size) {
        return Integer.highestOneBit(Math.max(1, size / (MOST_PER_CHUNK / 2)));
    }

    /** How many chunks this map has (for tests of its growth). */
    int chunkCount() {
        return chunks.length;
    }

    /** The same entries in at least {@code chunkCount} chunks: every entry placed again. */
    private ChunkedMap<K, V> rechunked(int chunkCount) {
        Editor<K, V> editor = ChunkedMap.<K, V>empty(chunkCount).edit();
        for (HashMap<K, V> chunk : chunks) {
            chunk.forEach(editor::put);
        }
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
        private final HashMap<K, V>[] chunks;
        private final boolean[] copied;
        private final ChunkedMap<K, V> base;
        private int size;
        private boolean built; // the built map shares the chunks: no write after

        private Editor(ChunkedMap<K, V> base) {
            this.base = base;
            this.chunks = base.chunks.clone();
            this.copied = new boolean[chunks.length];
            this.size = base.size;
        }

        private Map<K, V> writable(Object key) {
            if (built) {
                throw new IllegalStateException("this editor has built its map");
            }
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
            if (built) {
                throw new IllegalStateException("this editor has built its map");
            }
            built = true;
            ChunkedMap<K, V> map = new ChunkedMap<>(chunks, size);
            return size > chunks.length * MOST_PER_CHUNK ? map.rechunked(chunksFor(size)) : map;
        }
    }
}
