package dev.makeroom.core.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The nodes a filter or prioritize request names, in its order, each with its row in one
 * snapshot's {@link NodeTable} (-1: no node of that name there). The wire reader finds the row
 * while it reads the name, so the verbs need no second lookup per node; a verb given rows of
 * another table than its snapshot's resolves them again ({@link #against}).
 */
public final class RequestedNodes {

    private final NodeTable table;
    private final List<String> names;
    private final int[] rows;

    private RequestedNodes(NodeTable table, List<String> names, int[] rows) {
        this.table = table;
        this.names = names;
        this.rows = rows;
    }

    public static RequestedNodes resolve(NodeTable table, List<String> names) {
        int[] rows = new int[names.size()];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = table.indexOf(names.get(i));
        }
        return new RequestedNodes(table, Collections.unmodifiableList(new ArrayList<>(names)), rows);
    }

    /** These nodes with their rows in {@code other}: this when they were resolved there. */
    public RequestedNodes against(NodeTable other) {
        return other == table ? this : resolve(other, names);
    }

    public NodeTable table() {
        return table;
    }

    public List<String> names() {
        return names;
    }

    public int size() {
        return rows.length;
    }

    public String name(int i) {
        return names.get(i);
    }

    public int row(int i) {
        return rows[i];
    }

    /**
     * Collects names with their rows as a reader finds them, without boxing a row per node.
     * The names become an unmodifiable list owned by the result.
     */
    public static final class Builder {
        private final NodeTable table;
        private final List<String> names = new ArrayList<>();
        private int[] rows = new int[64];

        public Builder(NodeTable table) {
            this.table = table;
        }

        /** {@code row}: the name's row in this builder's table, or -1. */
        public void add(String name, int row) {
            if (names.size() == rows.length) {
                rows = Arrays.copyOf(rows, rows.length * 2);
            }
            rows[names.size()] = row;
            names.add(name);
        }

        public RequestedNodes build() {
            return new RequestedNodes(table, Collections.unmodifiableList(names), Arrays.copyOf(rows, names.size()));
        }
    }
}
