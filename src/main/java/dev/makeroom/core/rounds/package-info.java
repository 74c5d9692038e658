/**
 * The rescheduler's rounds, planned: which running pods to move, and where each will land. Pure: a
 * snapshot, settings and the recent evictions in ({@link dev.makeroom.core.rounds.RoundInputs}), a plan
 * with reasons out; one {@link dev.makeroom.core.rounds.RoundPolicy} per policy. Running the rounds and
 * enacting them (the Eviction API) is the {@code rescheduler} adapter's and the cluster adapter's job.
 */
package dev.makeroom.core.rounds;
