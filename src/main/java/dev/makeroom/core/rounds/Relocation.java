package dev.makeroom.core.rounds;

import dev.makeroom.core.model.NodeInfo;

/** What came of asking a round to move one pod: moved to a node, or kept where it is with the skip that says why. */
public sealed interface Relocation {

    /** Planned: the pod goes to {@code to} (the round's state and counts have it). */
    record Moved(NodeInfo to, Move move) implements Relocation {
    }

    /** Not moved; the round recorded {@code skip}. */
    record Kept(Skip skip) implements Relocation {
    }
}
