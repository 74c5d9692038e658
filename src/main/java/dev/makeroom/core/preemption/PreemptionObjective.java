package dev.makeroom.core.preemption;

/** What a preemption minimises after budgets and priorities (README, How makeroom decides). */
public enum PreemptionObjective {
    /** Kubernetes' own: the fewest victims, then the gentleness tie-breaks. */
    KUBERNETES,
    /** The least work lost ({@link dev.makeroom.core.room.WorkPrice}), then the fewest victims and the tie-breaks. */
    WORK_LOST
}
