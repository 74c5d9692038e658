package dev.makeroom.core.preemption;

import java.util.List;

/** A node the scheduler offers for preemption, with the victims it chose there (a hint: makeroom chooses its own). */
public record Candidate(String node, List<String> hintedVictimUids) {
    public Candidate {
        hintedVictimUids = List.copyOf(hintedVictimUids);
    }

    /** Bare nodes, with no victims named: as the debug simulation asks. */
    public static List<Candidate> onNodes(List<String> nodeNames) {
        return nodeNames.stream().map(n -> new Candidate(n, List.of())).toList();
    }
}
