/**
 * Where the queue configuration comes from: the YAML document (README, Queues) parsed into a
 * {@link dev.makeroom.core.queue.QueueTree}, read from the application configuration and, in
 * cluster mode, from the {@code makeroom-queues} ConfigMap, with the last good one kept.
 */
package dev.makeroom.queueconfig;
