/**
 * Hierarchical queues with guaranteed capacity (README, Queues): the queue tree, which leaf a pod
 * belongs to, and each queue's usage in one snapshot. The preemption laws that read them live in
 * {@link dev.makeroom.core.room.QueueRules}.
 */
package dev.makeroom.core.queue;
