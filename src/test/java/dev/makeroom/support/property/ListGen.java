package dev.makeroom.support.property;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** Lists of an element generator's values, of sizes in a range, optionally with unique elements. */
public final class ListGen<T> implements Gen<List<T>> {

    /** The largest size when none is given. */
    public static final int DEFAULT_MAX_SIZE = 255;

    private final Gen<T> element;
    private final int min;
    private final int max;
    private final Function<? super T, ?> uniqueBy; // null: duplicates allowed

    ListGen(Gen<T> element) {
        this(element, 0, DEFAULT_MAX_SIZE, null);
    }

    private ListGen(Gen<T> element, int min, int max, Function<? super T, ?> uniqueBy) {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("sizes " + min + ".." + max);
        }
        this.element = element;
        this.min = min;
        this.max = max;
        this.uniqueBy = uniqueBy;
    }

    public ListGen<T> ofMinSize(int size) {
        return new ListGen<>(element, size, Math.max(size, max), uniqueBy);
    }

    public ListGen<T> ofMaxSize(int size) {
        return new ListGen<>(element, Math.min(min, size), size, uniqueBy);
    }

    public ListGen<T> ofSize(int size) {
        return new ListGen<>(element, size, size, uniqueBy);
    }

    public ListGen<T> uniqueElements() {
        return uniqueElements(Function.identity());
    }

    /** Elements whose keys differ. */
    public ListGen<T> uniqueElements(Function<? super T, ?> key) {
        return new ListGen<>(element, min, max, key);
    }

    @Override
    public List<T> draw(Choices choices) {
        int size = min + choices.sizeOffset(max - min);
        List<T> list = new ArrayList<>(size);
        Set<Object> keys = uniqueBy == null ? null : new HashSet<>();
        int misses = 0;
        while (list.size() < size) {
            T value = element.draw(choices);
            if (keys == null || keys.add(uniqueBy.apply(value))) {
                list.add(value);
            } else if (++misses > FILTER_MISSES) {
                throw new Rejected("too few unique elements for a list of " + size);
            }
        }
        return list;
    }
}
