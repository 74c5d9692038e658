package dev.makeroom.core.model;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The nodes a filter or prioritize request names, in its order, each with its row in one
 * snapshot's {@link NodeTable} (-1: no node of that name there). The wire reader finds the row
 * while it reads the name, so the verbs need no second lookup per node; a verb given rows of
 * another table than its snapshot's resolves them again ({@link #against}).
 *
 * <p>A known node's name is the table's own String, so reading 500 names makes no String. A
 * {@link Builder} that a thread keeps from call to call lends its arrays ({@link Builder#lend}):
 * then reading a request's names allocates nothing in proportion to them.
 */
public final class RequestedNodes {

    private final NodeTable table;
    private final String[] names;
    private final int[] rows;
    private final int size;
    private final List<String> nameList;

    private RequestedNodes(NodeTable table, String[] names, int[] rows, int size) {
        this.table = table;
        this.names = names;
        this.rows = rows;
        this.size = size;
        this.nameList = new Names();
    }

    public static RequestedNodes resolve(NodeTable table, List<String> names) {
        String[] copied = names.toArray(new String[0]);
        int[] rows = new int[copied.length];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = table.indexOf(copied[i]);
        }
        return new RequestedNodes(table, copied, rows, copied.length);
    }

    /** These nodes with their rows in {@code other}: this when they were resolved there. */
    public RequestedNodes against(NodeTable other) {
        return other == table ? this : resolve(other, nameList);
    }

    public NodeTable table() {
        return table;
    }

    /** The names in the request's order, as an unmodifiable list over this value's own array. */
    public List<String> names() {
        return nameList;
    }

    public int size() {
        return size;
    }

    public String name(int i) {
        return names[i];
    }

    public int row(int i) {
        return rows[i];
    }

    private final class Names extends AbstractList<String> implements RandomAccess {
        @Override
        public String get(int index) {
            if (index < 0 || index >= size) {
                throw new IndexOutOfBoundsException(index);
            }
            return names[index];
        }

        @Override
        public int size() {
            return size;
        }
    }

    /** Collects names with their rows as a reader finds them, without boxing a row per node. */
    public static final class Builder {
        private NodeTable table;
        private String[] names = new String[64];
        private int[] rows = new int[64];
        private int size;

        public Builder(NodeTable table) {
            this.table = table;
        }

        /** Starts over for another request read against {@code table}, keeping the arrays grown so far. */
        public Builder reset(NodeTable against) {
            table = against;
            Arrays.fill(names, 0, size, null); // no node of an older snapshot is held by a reused builder
            size = 0;
            return this;
        }

        public NodeTable table() {
            return table;
        }

        /** {@code row}: the name's row in this builder's table, or -1. */
        public void add(String name, int row) {
            if (size == rows.length) {
                rows = Arrays.copyOf(rows, size * 2);
                names = Arrays.copyOf(names, size * 2);
            }
            rows[size] = row;
            names[size++] = name;
        }

        /** The names collected, in arrays of their own: the builder may be reset at once. */
        public RequestedNodes build() {
            return new RequestedNodes(table, Arrays.copyOf(names, size), Arrays.copyOf(rows, size), size);
        }

        /**
         * The names collected, over this builder's own arrays: valid until it is {@link #reset}, for a
         * thread that answers its request before it reads the next.
         */
        public RequestedNodes lend() {
            return new RequestedNodes(table, names, rows, size);
        }
    }
}
