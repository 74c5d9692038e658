package dev.makeroom.core.preemption;

import java.util.List;

/**
 * A node the scheduler offers for preemption, with the victims it chose there (a hint: makeroom chooses
 * its own) and the PodDisruptionBudget violations it counted for them.
 */
public record Candidate(String node, List<String> hintedVictimUids, long hintedPdbViolations) {
    public Candidate {
        hintedVictimUids = List.copyOf(hintedVictimUids);
    }

    public Candidate(String node, List<String> hintedVictimUids) {
        this(node, hintedVictimUids, 0);
    }

    /** Bare nodes, with no victims named: as the debug simulation asks. */
    public static List<Candidate> onNodes(List<String> nodeNames) {
        return nodeNames.stream().map(n -> new Candidate(n, List.of())).toList();
    }
}
