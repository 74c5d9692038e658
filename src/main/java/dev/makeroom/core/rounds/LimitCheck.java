package dev.makeroom.core.rounds;

/**
 * Whether evictions stay within the {@link RescheduleSettings.MoveLimits} ({@link #WITHIN}), or which
 * limit they would pass ({@link Passed}), with the limit's number.
 */
public sealed interface LimitCheck permits LimitCheck.Within, LimitCheck.Passed {

    Within WITHIN = new Within();

    /** The limits, each with its words. */
    enum Limit {
        PER_ROUND("the round's limit of %d evictions"),
        PER_NODE_PER_ROUND("the limit of %d evictions per node per round"),
        CLUSTER_PER_HOUR("the cluster's limit of %d evictions per hour"),
        PER_NAMESPACE_PER_HOUR("the limit of %d evictions per namespace per hour"),
        PER_CONTROLLER_PER_HOUR("the limit of %d evictions per controller per hour");

        private final String words;

        Limit(String words) {
            this.words = words;
        }
    }

    record Within() implements LimitCheck {
    }

    record Passed(Limit limit, int allowed) implements LimitCheck {
        /** The limit in words, e.g. "the round's limit of 10 evictions". */
        public String text() {
            return String.format(limit.words, allowed);
        }
    }

    default boolean within() {
        return this instanceof Within;
    }
}
