/**
 * The preempt verb: over the nodes the scheduler offers, may the pod preempt at all, which nodes are
 * worth a search, the room each needs (the {@code room} package's make-room operation, with the
 * inter-pod rules the placement engine answers), the best node, and the decision values the debug API
 * and the metrics keep ({@link dev.makeroom.core.preemption.PreemptionEngine} reads top-down). Also
 * the one "survey, then preempt" ({@link dev.makeroom.core.preemption.PendingPodSurvey}).
 */
package dev.makeroom.core.preemption;
