package dev.makeroom.core.room;

import java.util.List;
import java.util.Map;

/**
 * What the pending pod's inter-pod constraints ask of one node's victims: that makeroom cannot tell
 * ({@link Unmodelled}), that no victim set on this node can work ({@link Impossible}), or what the victims
 * must be ({@link Shaping}: pods that must go, counts they must reach, notes on what shaped them).
 */
public sealed interface NodeConstraints {

    /** Nothing asked of the victims: the most common answer. */
    Shaping NONE = new Shaping(Map.of(), List.of(), List.of());

    /** A constraint makeroom does not model: it cannot say which victims would do. */
    record Unmodelled(String what) implements NodeConstraints {
    }

    /** No victim set on this node makes the constraints hold. */
    record Impossible(String why) implements NodeConstraints {
    }

    /**
     * The victims must include the {@code forced} pods (uid → why) and reach each of the {@code needs};
     * {@code notes} explain the constraints that shaped them.
     */
    record Shaping(Map<String, String> forced, List<CountNeed> needs, List<String> notes) implements NodeConstraints {
        // not copied: posed for every node of every pending pod, from collections made for it alone
    }

    static NodeConstraints unmodelled(String what) {
        return new Unmodelled(what);
    }

    static NodeConstraints impossible(String why) {
        return new Impossible(why);
    }
}
