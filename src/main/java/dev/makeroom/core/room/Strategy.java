package dev.makeroom.core.room;

/** How victims are chosen on a node. */
public enum Strategy {
    /** The exact search for the set that is best under the objective. */
    MINIMAL,
    /** The kube-scheduler's reprieve heuristic, with makeroom's candidacy policies. */
    KUBE_DEFAULT
}
