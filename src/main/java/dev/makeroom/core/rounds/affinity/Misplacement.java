package dev.makeroom.core.rounds.affinity;

/**
 * Whether a running pod may stay where it runs as far as its required constraints go
 * ({@link #FITS}), or which of them its node now breaks ({@link Broken}), for the affinity policy.
 */
sealed interface Misplacement permits Misplacement.Fits, Misplacement.Broken {

    Fits FITS = new Fits();

    /** The required constraints a node can break for the pod running on it. */
    enum Rule {
        /** Its node selector or required node affinity no longer allows the node (labels changed). */
        NODE_AFFINITY,
        /** A pod on the same node it must be kept apart from (required anti-affinity, hostname key). */
        ANTI_AFFINITY_ON_NODE,
        /** Required anti-affinity over a wider domain, broken where it runs (the engine's verdict). */
        ANTI_AFFINITY
    }

    record Fits() implements Misplacement {
    }

    record Broken(Rule rule, String text) implements Misplacement {
    }
}
