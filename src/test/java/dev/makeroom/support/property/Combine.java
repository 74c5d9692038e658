package dev.makeroom.support.property;

/** Generators taken together, their values drawn in order and made into one by a function. */
public final class Combine {

    private Combine() {
    }

    @FunctionalInterface
    public interface Fn2<A, B, R> {
        R apply(A a, B b);
    }

    @FunctionalInterface
    public interface Fn3<A, B, C, R> {
        R apply(A a, B b, C c);
    }

    @FunctionalInterface
    public interface Fn4<A, B, C, D, R> {
        R apply(A a, B b, C c, D d);
    }

    @FunctionalInterface
    public interface Fn5<A, B, C, D, E, R> {
        R apply(A a, B b, C c, D d, E e);
    }

    @FunctionalInterface
    public interface Fn6<A, B, C, D, E, F, R> {
        R apply(A a, B b, C c, D d, E e, F f);
    }

    @FunctionalInterface
    public interface Fn7<A, B, C, D, E, F, G, R> {
        R apply(A a, B b, C c, D d, E e, F f, G g);
    }

    @FunctionalInterface
    public interface Fn8<A, B, C, D, E, F, G, H, R> {
        R apply(A a, B b, C c, D d, E e, F f, G g, H h);
    }

    public record Of2<A, B>(Gen<A> a, Gen<B> b) {
        public <R> Gen<R> as(Fn2<? super A, ? super B, ? extends R> fn) {
            return ch -> fn.apply(a.draw(ch), b.draw(ch));
        }
    }

    public record Of3<A, B, C>(Gen<A> a, Gen<B> b, Gen<C> c) {
        public <R> Gen<R> as(Fn3<? super A, ? super B, ? super C, ? extends R> fn) {
            return ch -> fn.apply(a.draw(ch), b.draw(ch), c.draw(ch));
        }
    }

    public record Of4<A, B, C, D>(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d) {
        public <R> Gen<R> as(Fn4<? super A, ? super B, ? super C, ? super D, ? extends R> fn) {
            return ch -> fn.apply(a.draw(ch), b.draw(ch), c.draw(ch), d.draw(ch));
        }
    }

    public record Of5<A, B, C, D, E>(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Gen<E> e) {
        public <R> Gen<R> as(Fn5<? super A, ? super B, ? super C, ? super D, ? super E, ? extends R> fn) {
            return ch -> fn.apply(a.draw(ch), b.draw(ch), c.draw(ch), d.draw(ch), e.draw(ch));
        }
    }

    public record Of6<A, B, C, D, E, F>(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Gen<E> e, Gen<F> f) {
        public <R> Gen<R> as(Fn6<? super A, ? super B, ? super C, ? super D, ? super E, ? super F, ? extends R> fn) {
            return ch -> fn.apply(a.draw(ch), b.draw(ch), c.draw(ch), d.draw(ch), e.draw(ch), f.draw(ch));
        }
    }

    public record Of7<A, B, C, D, E, F, G>(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Gen<E> e, Gen<F> f, Gen<G> g) {
        public <R> Gen<R> as(Fn7<? super A, ? super B, ? super C, ? super D, ? super E, ? super F, ? super G,
                ? extends R> fn) {
            return ch -> fn.apply(a.draw(ch), b.draw(ch), c.draw(ch), d.draw(ch), e.draw(ch), f.draw(ch), g.draw(ch));
        }
    }

    public record Of8<A, B, C, D, E, F, G, H>(Gen<A> a, Gen<B> b, Gen<C> c, Gen<D> d, Gen<E> e, Gen<F> f, Gen<G> g,
                                              Gen<H> h) {
        public <R> Gen<R> as(Fn8<? super A, ? super B, ? super C, ? super D, ? super E, ? super F, ? super G,
                ? super H, ? extends R> fn) {
            return ch -> fn.apply(a.draw(ch), b.draw(ch), c.draw(ch), d.draw(ch), e.draw(ch), f.draw(ch), g.draw(ch),
                    h.draw(ch));
        }
    }
}
