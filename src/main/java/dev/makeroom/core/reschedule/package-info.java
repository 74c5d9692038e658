/**
 * The rescheduler's planner: which running pods to move, and where each will land. Pure: a snapshot,
 * settings and the recent evictions in, a plan with reasons out. Enacting it (the Eviction API) is the
 * cluster adapter's job.
 */
package dev.makeroom.core.reschedule;
