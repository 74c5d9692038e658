/**
 * Fast paths over a snapshot, not part of the model's meaning: each answers exactly what a plain
 * computation over the model answers, only faster, and a property test holds it to that.
 * <ul>
 *   <li>{@link dev.makeroom.core.model.fast.ChunkedMap}: a map a new snapshot shares with the old
 *       one except where it changed (equals a plain immutable map).</li>
 *   <li>{@link dev.makeroom.core.model.fast.NodeTable}, {@link dev.makeroom.core.model.fast.NodeNameIndex}
 *       and {@link dev.makeroom.core.model.fast.RequestedNodes}: every node's free amounts in dense rows,
 *       found from the request's name characters, for filter and prioritize over thousands of nodes
 *       (equal to reading each {@link dev.makeroom.core.model.NodeInfo}).</li>
 *   <li>{@link dev.makeroom.core.model.fast.TableFit}: the fit rule
 *       ({@link dev.makeroom.core.accounting.FitCheck#shortMask}) read from table rows.</li>
 *   <li>{@link dev.makeroom.core.model.fast.PriorityLadder}: a node's requests summed by priority,
 *       for the shield score (equal to summing the node's pods below a priority).</li>
 * </ul>
 * The snapshot builds and keeps them, so this package is part of the model's slice in the
 * architecture rules.
 */
package dev.makeroom.core.model.fast;
