package dev.makeroom.core.rounds;

import dev.makeroom.core.placement.Filter;

/**
 * Whether a moved pod may land on a node once the round's moves so far are done and, when not, why:
 * as a value with its kind (and the scheduler's filter, when one refused), never a text or null.
 */
public sealed interface Landing {

    /** It may land. */
    Landing LANDS = new Lands();

    record Lands() implements Landing {
    }

    /** It may not: {@code filter} is the scheduler's or makeroom's filter that refused, only for {@link Why#FILTER}. */
    record Refused(Why why, Filter filter, String text) implements Landing {
    }

    enum Why {
        /** Cordoned: being drained, never a target, even for a pod that tolerates it. */
        CORDONED,
        /** Emptied by the consolidate policy: never a target, even for a pod that tolerates its taint. */
        BEING_EMPTIED,
        /** A filter of the scheduler's, or one of makeroom's own (room held), refuses it there. */
        FILTER,
        /** The node's avoid list, or a move off it this round, names the pod's controller. */
        AVOIDED,
        /** It would leave the pods that stay with their spread or affinity worse off than at the round's start. */
        LEAVES_OTHERS_WORSE
    }

    default boolean lands() {
        return this instanceof Lands;
    }

    /** Why not, as the reports say it; empty when it lands. */
    default String text() {
        return this instanceof Refused refused ? refused.text() : "";
    }
}
