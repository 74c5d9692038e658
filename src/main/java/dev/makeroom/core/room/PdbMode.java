package dev.makeroom.core.room;

/** How PodDisruptionBudgets bind preemption. */
public enum PdbMode {
    /** Fewest violations first, as the objective says; a violating set is still allowed. */
    PREFER,
    /** No set that violates a budget. */
    STRICT
}
