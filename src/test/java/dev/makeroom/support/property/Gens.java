package dev.makeroom.support.property;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/** Where generators start: numbers, picks from values, strings, maps, choices between generators. */
public final class Gens {

    private Gens() {
    }

    public static IntGen integers() {
        return new IntGen(Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    public static LongGen longs() {
        return new LongGen(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    public static StringGen strings() {
        return new StringGen();
    }

    /** One of {@code values}, the first the simplest. */
    @SafeVarargs
    public static <T> Gen<T> of(T... values) {
        return of(List.of(values));
    }

    /** One of {@code values}, the first the simplest. */
    public static <T> Gen<T> of(Collection<? extends T> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("nothing to pick from");
        }
        List<T> picks = new ArrayList<>(values);
        return choices -> picks.get((int) choices.offset(picks.size() - 1));
    }

    public static <E extends Enum<E>> Gen<E> of(Class<E> type) {
        return of(type.getEnumConstants());
    }

    public static <T> Gen<T> just(T value) {
        return choices -> value;
    }

    /** One of the generators, each as likely. */
    @SafeVarargs
    public static <T> Gen<T> oneOf(Gen<? extends T>... gens) {
        List<Gen<? extends T>> all = List.of(gens);
        return choices -> all.get((int) choices.offset(all.size() - 1)).draw(choices);
    }

    /** A generator with its weight, for {@link #frequencyOf}. */
    public record Weighted<T>(int weight, Gen<? extends T> gen) {
    }

    public static <T> Weighted<T> weighted(int weight, Gen<? extends T> gen) {
        return new Weighted<>(weight, gen);
    }

    /** One of the generators, as often as its weight says; the first the simplest. */
    @SafeVarargs
    public static <T> Gen<T> frequencyOf(Weighted<? extends T>... weighted) {
        List<Weighted<? extends T>> all = List.of(weighted);
        int total = all.stream().mapToInt(Weighted::weight).sum();
        return choices -> {
            long ticket = choices.offset(total - 1);
            for (Weighted<? extends T> w : all) {
                if (ticket < w.weight()) {
                    return w.gen().draw(choices);
                }
                ticket -= w.weight();
            }
            throw new IllegalStateException("a ticket beyond the weights");
        };
    }

    /** Maps of keys to values, of sizes in a range. */
    public static <K, V> MapGen<K, V> maps(Gen<K> keys, Gen<V> values) {
        return new MapGen<>(keys, values);
    }

    /** {@code base} wrapped by {@code deeper} between {@code minDepth} and {@code maxDepth} times. */
    public static <T> Gen<T> recursive(Supplier<Gen<T>> base, Function<Gen<T>, Gen<T>> deeper, int minDepth, int maxDepth) {
        return choices -> {
            int depth = minDepth + (int) choices.offset(maxDepth - minDepth);
            Gen<T> gen = base.get();
            for (int d = 0; d < depth; d++) {
                gen = deeper.apply(gen);
            }
            return gen.draw(choices);
        };
    }

    /** Values made of two to eight generators' values, drawn in order: {@code combine(a, b).as((x, y) -> …)}. */
    public static <A, B> Combine.Of2<A, B> combine(Gen<A> a, Gen<B> b) {
        return new Combine.Of2<>(a, b);
    }

    public static <A, B, C> Combine.Of3<A, B, C> combine(Gen<A> a, Gen<B> b, Gen<C> c) {
        return new Combine.Of3<>(a, b, c);
    }

    public static <A, B, C, D> Combine.Of4<A, B, C, D> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d) {
        return new Combine.Of4<>(a, b, c, d);
    }

    public static <A, B, C, D, E> Combine.Of5<A, B, C, D, E> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Gen<E> e) {
        return new Combine.Of5<>(a, b, c, d, e);
    }

    public static <A, B, C, D, E, F> Combine.Of6<A, B, C, D, E, F> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d,
                                                                         Gen<E> e, Gen<F> f) {
        return new Combine.Of6<>(a, b, c, d, e, f);
    }

    public static <A, B, C, D, E, F, G> Combine.Of7<A, B, C, D, E, F, G> combine(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d,
                                                                               Gen<E> e, Gen<F> f, Gen<G> g) {
        return new Combine.Of7<>(a, b, c, d, e, f, g);
    }

    public static <A, B, C, D, E, F, G, H> Combine.Of8<A, B, C, D, E, F, G, H> combine(Gen<A> a, Gen<B> b, Gen<C> c,
                                                                                     Gen<D> d, Gen<E> e, Gen<F> f,
                                                                                     Gen<G> g, Gen<H> h) {
        return new Combine.Of8<>(a, b, c, d, e, f, g, h);
    }
}
