package dev.makeroom.core.preemption;

import java.util.List;

/** A node the scheduler offers for preemption, with the victims it chose there (a hint: makeroom chooses its own). */
public record Candidate(String node, List<String> hintedVictimUids) {
    public Candidate {
        hintedVictimUids = List.copyOf(hintedVictimUids);
    }
}
