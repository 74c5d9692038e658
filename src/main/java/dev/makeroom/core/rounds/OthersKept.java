package dev.makeroom.core.rounds;

import dev.makeroom.core.model.PodRef;

/**
 * Whether moves keep what the pods that stay are owed ({@link KeptConstraints}): {@link #KEPT}, or
 * {@link Broken} naming the constraint, the pod that owns it and, in words, how the moves break it.
 */
public sealed interface OthersKept permits OthersKept.Kept, OthersKept.Broken {

    Kept KEPT = new Kept();

    /** The required constraints a move can break for the pods that stay. */
    enum Constraint {
        /** A topology spread constraint whose skew the move would raise past what it allows. */
        SPREAD,
        /** A required pod affinity whose last matching pod in the domain the move would take away. */
        AFFINITY
    }

    record Kept() implements OthersKept {
    }

    record Broken(Constraint constraint, PodRef owner, String text) implements OthersKept {
    }

    default boolean kept() {
        return this instanceof Kept;
    }
}
