package dev.makeroom.support.property;

import java.util.LinkedHashSet;
import java.util.Set;

/** Sets of an element generator's values, of sizes in a range. */
public final class SetGen<T> implements Gen<Set<T>> {

    private final ListGen<T> unique;

    SetGen(Gen<T> element) {
        this(element.list().uniqueElements());
    }

    private SetGen(ListGen<T> unique) {
        this.unique = unique;
    }

    public SetGen<T> ofMinSize(int size) {
        return new SetGen<>(unique.ofMinSize(size));
    }

    public SetGen<T> ofMaxSize(int size) {
        return new SetGen<>(unique.ofMaxSize(size));
    }

    public SetGen<T> ofSize(int size) {
        return new SetGen<>(unique.ofSize(size));
    }

    @Override
    public Set<T> draw(Choices choices) {
        return new LinkedHashSet<>(unique.draw(choices));
    }
}
