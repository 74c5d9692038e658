package dev.makeroom.core.room;

import dev.makeroom.core.model.PodInfo;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * Some of a node's pods, named by their rows in its list (and so in its {@code PodColumns}): a
 * tier's candidates as {@link NodeProblem} finds them. A view, not a copy: posed for every candidate
 * node of a preemption, the rows are the one array made, and they are what the checks read.
 */
final class PodRows extends AbstractList<PodInfo> implements RandomAccess {

    private final List<PodInfo> pods;
    private final int[] rows;
    private final int size;

    /** The pods at {@code rows[0..size)} of {@code pods}. */
    PodRows(List<PodInfo> pods, int[] rows, int size) {
        this.pods = pods;
        this.rows = rows;
        this.size = size;
    }

    @Override
    public PodInfo get(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException(index + " of " + size);
        }
        return pods.get(rows[index]);
    }

    @Override
    public int size() {
        return size;
    }

    /** The rows, as held: only the first {@link #size} count. */
    int[] rows() {
        return rows;
    }
}
