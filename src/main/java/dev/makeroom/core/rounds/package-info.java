/**
 * The rescheduler's rounds, planned: which running pods to move, and where each will land. Pure: a
 * snapshot, settings and the recent evictions in ({@link dev.makeroom.core.rounds.RoundInputs}), a plan
 * with reasons out. This package is what every policy plans through (the {@link dev.makeroom.core.rounds.Round},
 * the planned cluster, the ledgers, moves and skips); each policy is a folder beneath it (its
 * {@link dev.makeroom.core.rounds.RoundPolicy}, its settings record, what only it uses), and
 * {@code planner} registers them and runs a round. Running the rounds and enacting them (the Eviction
 * API) is the {@code rescheduler} adapter's and the cluster adapter's job.
 */
package dev.makeroom.core.rounds;
