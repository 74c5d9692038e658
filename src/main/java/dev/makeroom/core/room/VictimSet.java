package dev.makeroom.core.room;

import dev.makeroom.core.model.PodInfo;

import java.util.List;

/** The pods to evict on one node, most important first, with their PDB violations and cost. */
public record VictimSet(List<PodInfo> victims, int pdbViolations, Objective objective) {
    public VictimSet {
        victims = List.copyOf(victims);
    }
}
