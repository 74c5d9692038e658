package dev.makeroom.core.room;

/** Why a candidate node cannot host the pending pod by preemption. */
public enum InfeasibleReason {
    UNKNOWN_NODE,
    UNKNOWN_VICTIM,
    FITS_WITHOUT_PREEMPTION,
    NOT_ENOUGH_PREEMPTIBLE_RESOURCES,
    CONFLICT_WITH_PROTECTED_POD,
    PDB_WOULD_BE_VIOLATED,
    /** Every set that makes room would take some queue below its guarantee (law 2). */
    QUEUE_GUARANTEE_WOULD_BE_BROKEN,
    /** Pod affinity, anti-affinity or topology spread cannot be met by evicting pods of this node. */
    INTER_POD_CONSTRAINT,
    /** The pod has a constraint makeroom does not model, and the scheduler named no victims to keep. */
    UNMODELLED_CONSTRAINT
}
