/**
 * Where the queue configuration comes from: the YAML document (DESIGN §3) parsed into a
 * {@link dev.makeroom.core.queue.QueueTree}, read from the application configuration and, in
 * cluster mode, from the {@code makeroom-queues} ConfigMap, with the last good one kept.
 */
package dev.makeroom.queues;
