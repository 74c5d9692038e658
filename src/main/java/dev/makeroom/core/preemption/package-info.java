/**
 * The preempt verb: eligibility, per-node candidacy and conflicts, the victim selectors (the exact
 * {@link dev.makeroom.core.preemption.MinimalVictimSearch} and the kube-scheduler's reprieve), and
 * the decision values they produce.
 */
package dev.makeroom.core.preemption;
