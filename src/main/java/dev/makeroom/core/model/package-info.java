/**
 * The cluster as makeroom sees it: an immutable {@link dev.makeroom.core.model.ClusterSnapshot} of
 * nodes, pods, budgets and priority classes, and the values they are made of.
 *
 * <p>Beside the model's meaning, the snapshot keeps fast paths over itself. Each answers exactly what
 * a plain computation over the model answers, only faster, and a property test holds it to that:
 * <ul>
 *   <li>{@link dev.makeroom.core.model.ChunkedMap}: a map a new snapshot shares with the old one
 *       except where it changed (equals a plain immutable map).</li>
 *   <li>{@link dev.makeroom.core.model.NodeTable}, {@link dev.makeroom.core.model.NodeNameIndex} and
 *       {@link dev.makeroom.core.model.RequestedNodes}: every node's free amounts in dense rows, found
 *       from the request's name characters, for filter and prioritize over thousands of nodes (equal
 *       to reading each {@link dev.makeroom.core.model.NodeInfo}).</li>
 *   <li>{@link dev.makeroom.core.model.PriorityLadder}: a node's requests summed by priority, for the
 *       shield score (equal to summing the node's pods below a priority).</li>
 * </ul>
 * The fit rule read from table rows, {@code TableFit}, is the accounting package's.
 */
package dev.makeroom.core.model;
