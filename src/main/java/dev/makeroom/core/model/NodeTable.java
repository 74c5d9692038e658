package dev.makeroom.core.model;

import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes of one snapshot laid out flat, for the verbs that touch every node of the cluster on
 * every scheduling cycle.
 *
 * <p>Why: filter and prioritize with 5,000 node names spent most of their time waiting for memory.
 * A lookup in a hash map of nodes, then the node's allocatable and requested amounts and its
 * priority ladder, is a chain of a dozen dependent reads scattered over the heap, and a request's
 * own garbage evicts them between calls. Here everything those verbs need sits in a few dense
 * arrays that stay in a core's cache: the names ({@link NodeNameIndex}); per node a row of longs
 * over every resource any node has or uses (a column each), holding its allocatable and its free
 * amount ({@code allocatable - requested}); and its {@link PriorityLadder} as consecutive steps of
 * (priority, cumulative amounts per column).
 *
 * <p>Built once per snapshot, on first use ({@link ClusterSnapshot#table()}), from the last table
 * built for an earlier snapshot when only some nodes changed since ({@link #withReplaced}). Nodes with pods
 * nominated to them are flagged: what is taken there depends on the pending pod's priority, so
 * callers answer them from the {@link NodeInfo} itself.
 */
public final class NodeTable {

    private final NodeInfo[] nodes;
    private final NodeNameIndex names;
    private final Map<String, Integer> columns;
    private final int width;
    private final String[] byColumn;
    private final long[] allocatable; // [node * width + column]
    private final long[] free;        // [node * width + column]
    private final boolean[] hasNominated;
    private final int[] ladderStart;  // node i's steps: ladderStart[i] .. ladderStart[i + 1]
    private final int[] stepPriority; // ascending within a node
    private final long[] stepAtOrBelow; // [step * width + column]

    private NodeTable(NodeInfo[] nodes, NodeNameIndex names, Map<String, Integer> columns, int[] ladderStart) {
        this.nodes = nodes;
        this.names = names;
        this.columns = columns;
        this.width = columns.size();
        this.byColumn = new String[width];
        columns.forEach((name, column) -> byColumn[column] = name);
        this.allocatable = new long[nodes.length * width];
        this.free = new long[nodes.length * width];
        this.hasNominated = new boolean[nodes.length];
        this.ladderStart = ladderStart;
        this.stepPriority = new int[ladderStart[nodes.length]];
        this.stepAtOrBelow = new long[ladderStart[nodes.length] * width];
    }

    /** No nodes: names read against it are taken as they come, with no row and no lookup worth the name. */
    public static final NodeTable EMPTY = of(java.util.List.of());

    public static NodeTable of(Collection<NodeInfo> all) {
        NodeInfo[] nodes = all.toArray(new NodeInfo[0]);
        // rows in name order, the order a scheduler whose informer listed its nodes sorted asks about them:
        // the names of one request then fall on consecutive rows, read from memory in order (indexOfNext)
        Arrays.sort(nodes, Comparator.comparing(NodeInfo::name));
        String[] names = new String[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            names[i] = nodes[i].name();
        }
        NodeTable table = new NodeTable(nodes, new NodeNameIndex(names), columnsOf(nodes), ladderStarts(nodes));
        for (int i = 0; i < nodes.length; i++) {
            table.fill(i);
        }
        return table;
    }

    /**
     * This table with some nodes replaced by newer versions of themselves, for the next snapshot:
     * unchanged rows are copied as blocks and only the replaced ones are read from their nodes, so
     * a snapshot that changed a few nodes does not gather all 5,000 again. Null when a replaced node
     * is not in this table or has a resource without a column: then the caller builds in full.
     */
    public NodeTable withReplaced(Collection<NodeInfo> replaced) {
        NodeInfo[] next = nodes.clone();
        int[] rows = new int[replaced.size()];
        int count = 0;
        for (NodeInfo node : replaced) {
            int i = indexOf(node.name());
            if (i < 0 || !hasColumns(node.allocatable()) || !hasColumns(node.requested())) {
                return null; // the ladder sums a subset of what requested sums, so it has columns too
            }
            rows[count++] = i;
            next[i] = node;
        }
        rows = distinctSorted(rows, count);
        NodeTable table = new NodeTable(next, names, columns, shiftedLadderStarts(rows, next));
        System.arraycopy(allocatable, 0, table.allocatable, 0, allocatable.length);
        System.arraycopy(free, 0, table.free, 0, free.length);
        System.arraycopy(hasNominated, 0, table.hasNominated, 0, hasNominated.length);
        int from = 0; // unchanged rows from..row-1 keep their steps, moved as one block
        for (int k = 0; k <= rows.length; k++) {
            int row = k < rows.length ? rows[k] : next.length;
            int steps = ladderStart[row] - ladderStart[from];
            System.arraycopy(stepPriority, ladderStart[from], table.stepPriority, table.ladderStart[from], steps);
            System.arraycopy(stepAtOrBelow, ladderStart[from] * width, table.stepAtOrBelow,
                    table.ladderStart[from] * width, steps * width);
            if (row < next.length) {
                table.fill(row);
            }
            from = row + 1;
        }
        return table;
    }

    private static int[] distinctSorted(int[] rows, int count) {
        Arrays.sort(rows, 0, count);
        int distinct = 0;
        for (int k = 0; k < count; k++) {
            if (distinct == 0 || rows[distinct - 1] != rows[k]) {
                rows[distinct++] = rows[k];
            }
        }
        return Arrays.copyOf(rows, distinct);
    }

    /**
     * Where each node's steps start once the nodes at {@code rows} (ascending) have their new ladders:
     * the old starts shifted by what the changed nodes gained or lost, without visiting every node.
     */
    private int[] shiftedLadderStarts(int[] rows, NodeInfo[] next) {
        int shift = 0;
        for (int row : rows) {
            shift |= next[row].ladder().steps() - (ladderStart[row + 1] - ladderStart[row]);
        }
        if (shift == 0) {
            return ladderStart; // no node gained or lost a step: the starts are shared, never written
        }
        int[] starts = new int[ladderStart.length];
        int delta = 0;
        int from = 0;
        for (int row : rows) {
            for (int i = from; i <= row; i++) {
                starts[i] = ladderStart[i] + delta;
            }
            delta += next[row].ladder().steps() - (ladderStart[row + 1] - ladderStart[row]);
            from = row + 1;
        }
        for (int i = from; i < starts.length; i++) {
            starts[i] = ladderStart[i] + delta;
        }
        return starts;
    }

    private boolean hasColumns(Resources resources) {
        for (int k = 0; k < resources.size(); k++) {
            if (!columns.containsKey(resources.name(k))) {
                return false;
            }
        }
        return true;
    }

    private static int[] ladderStarts(NodeInfo[] nodes) {
        int[] starts = new int[nodes.length + 1];
        for (int i = 0; i < nodes.length; i++) {
            starts[i + 1] = starts[i] + nodes[i].ladder().steps();
        }
        return starts;
    }

    /** Writes node i's row and ladder steps from the node itself. */
    private void fill(int i) {
        NodeInfo node = nodes[i];
        for (int c = 0; c < width; c++) {
            allocatable[i * width + c] = node.allocatable().get(byColumn[c]);
            free[i * width + c] = allocatable[i * width + c] - node.requested().get(byColumn[c]);
        }
        hasNominated[i] = !node.nominatedPods().isEmpty();
        for (int k = 0; k < node.ladder().steps(); k++) {
            int step = ladderStart[i] + k;
            stepPriority[step] = node.ladder().priority(k);
            for (int c = 0; c < width; c++) {
                stepAtOrBelow[step * width + c] = node.ladder().atOrBelow(k).get(byColumn[c]);
            }
        }
    }

    /** Every resource name any node has allocatable or has requested by its pods. */
    private static Map<String, Integer> columnsOf(NodeInfo[] nodes) {
        Map<String, Integer> columns = new HashMap<>();
        for (NodeInfo node : nodes) {
            for (Resources r : List.of(node.allocatable(), node.requested())) {
                for (int k = 0; k < r.size(); k++) {
                    columns.putIfAbsent(r.name(k), columns.size());
                }
            }
        }
        return columns;
    }

    /** The node's index in this table, or -1 when the snapshot has no node of that name. */
    public int indexOf(String name) {
        return names.indexOf(name);
    }

    /** {@link #indexOf} for a name given as characters, as a JSON parser holds it. */
    public int indexOf(char[] chars, int offset, int length) {
        return names.indexOf(chars, offset, length);
    }

    /**
     * As above, for the name that follows row {@code previous} (-1: the first) in a request: the
     * scheduler lists its nodes in one fixed order, so the row that followed {@code previous} last
     * time is tried first, without hashing, and most often is the one.
     */
    public int indexOfNext(char[] chars, int offset, int length, int previous) {
        return names.indexOfNext(chars, offset, length, previous);
    }

    /** The row {@link #indexOfNext} tries first after {@code previous}. */
    int guessAfter(int previous) {
        return names.successorOf(previous);
    }

    /** The node's name, as this table's own String. */
    public String name(int index) {
        return names.name(index);
    }

    /**
     * Whether every index means the same node in both tables: true along a chain of snapshots in
     * which no node joined or left, so what is kept per index (e.g. a name's encoding) still holds.
     */
    public boolean sameNodesAs(NodeTable other) {
        return other != null && other.names == names;
    }

    public NodeInfo node(int index) {
        return nodes[index];
    }

    public int size() {
        return nodes.length;
    }

    public boolean hasNominated(int index) {
        return hasNominated[index];
    }

    /** The column of a resource, or -1 when no node has or uses it (all its amounts are 0). */
    public int column(String resource) {
        Integer column = columns.get(resource);
        return column == null ? -1 : column;
    }

    public long allocatable(int index, int column) {
        return column < 0 ? 0 : allocatable[index * width + column];
    }

    /** allocatable - requested of a resource on a node, by bound pods only; 0 for column -1. */
    public long free(int index, int column) {
        return column < 0 ? 0 : free[index * width + column];
    }

    /**
     * What the node's running pods below {@code priority} request of a column's resource, as
     * {@link PriorityLadder#below}; {@code step} from {@link #stepBelow}.
     */
    public long below(int step, int column) {
        return step < 0 || column < 0 ? 0 : stepAtOrBelow[step * width + column];
    }

    /** The node's last ladder step below {@code priority}, or -1 when no running pod is below it. */
    public int stepBelow(int index, int priority) {
        int low = ladderStart[index];
        int high = ladderStart[index + 1]; // first step at or above priority, by binary search
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (stepPriority[mid] < priority) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low == ladderStart[index] ? -1 : low - 1;
    }
}
