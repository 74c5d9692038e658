/**
 * Making room for a pod on one node, the operation preemption and the rescheduler's defragmentation
 * share: who may be disturbed and why not ({@link dev.makeroom.core.room.Eligibility}, preemption's
 * configuration with the queue laws of {@link dev.makeroom.core.room.QueueRules}, or moving's), the problem as a value
 * ({@link dev.makeroom.core.room.NodeProblem}), the objective ({@link dev.makeroom.core.room.Objective})
 * and the search for the least disruptive set ({@link dev.makeroom.core.room.RoomMaker}, exact with
 * its budget and optimality proof, or the kube-scheduler's reprieve). The search's internals (the
 * candidate pool, the bounds, the cover tables) are package-private behind {@code RoomMaker}.
 */
package dev.makeroom.core.room;
