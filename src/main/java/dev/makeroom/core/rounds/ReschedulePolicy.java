package dev.makeroom.core.rounds;

/** Why a pod is moved. */
public enum ReschedulePolicy {
    /** From a node above its high thresholds to one below its low thresholds. */
    REBALANCE,
    /** Off a node, to make room there for a pending pod that fits nowhere; each moved pod lands elsewhere. */
    DEFRAGMENT,
    /** Off a node its node selector or required node affinity no longer allows, or where it breaks a required anti-affinity. */
    AFFINITY,
    /** Off a node with a NoSchedule taint it does not tolerate. */
    TAINTS,
    /** Out of a topology domain that holds more of its spread group than its maxSkew allows. */
    SPREAD,
    /** Off a node that holds more pods of its controller than another node that takes it would. */
    DUPLICATES,
    /** Off one of the least used nodes, which is being emptied for the cluster autoscaler. */
    CONSOLIDATE
}
