/**
 * The rescheduler at work: its configuration (a document in the ConfigMap {@code makeroom-rescheduler},
 * live, last good kept), the background rounds on the leader, and what they did, for the debug API and
 * the metrics. Plans come from {@code core.reschedule}; evictions go out through the cluster adapter.
 */
package dev.makeroom.rescheduler;
