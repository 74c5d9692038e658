package dev.makeroom.support.property;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A generator of values of {@code T}, drawing every choice it makes from {@link Choices} (so that what
 * it makes replays and shrinks). Build them with {@link Gens} and the methods here.
 */
@FunctionalInterface
public interface Gen<T> {

    /** How many draws a filter may miss in a row before the case is given up ({@link Rejected}). */
    int FILTER_MISSES = 10_000;

    T draw(Choices choices);

    default <R> Gen<R> map(Function<? super T, ? extends R> mapper) {
        return choices -> mapper.apply(draw(choices));
    }

    default <R> Gen<R> flatMap(Function<? super T, ? extends Gen<R>> next) {
        return choices -> next.apply(draw(choices)).draw(choices);
    }

    default Gen<T> filter(Predicate<? super T> keep) {
        return choices -> {
            for (int miss = 0; miss < FILTER_MISSES; miss++) {
                T value = draw(choices);
                if (keep.test(value)) {
                    return value;
                }
            }
            throw new Rejected("a filter refused " + FILTER_MISSES + " values in a row");
        };
    }

    default ListGen<T> list() {
        return new ListGen<>(this);
    }

    default SetGen<T> set() {
        return new SetGen<>(this);
    }
}
