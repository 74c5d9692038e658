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
 * <p>A change costs what it touched. The rows are kept in blocks of {@link #BLOCK} nodes, each block
 * its own arrays, and the table of a later snapshot shares every block whose nodes did not change
 * ({@link #withReplaced}): a binding, which changes one node, copies one block (a few KB; only the
 * changed row is read from its node) and the array of block references, not the whole table. In a
 * cluster that binds 150 pods a second every binding is
 * a new snapshot, and copying the table whole was about a megabyte of garbage each at 5,000 nodes. The
 * table is built on first use ({@link ClusterSnapshot#table()}). Nodes with pods nominated to them are
 * flagged: what is taken there depends on the pending pod's priority, so callers answer them from the
 * {@link NodeInfo} itself.
 */
public final class NodeTable {

    /** Nodes per block: a power of two, so a row's block and place in it are a shift and a mask. */
    static final int BLOCK = 64;
    private static final int SHIFT = Integer.numberOfTrailingZeros(BLOCK);

    private final int size;
    private final Block[] blocks;
    private final NodeNameIndex names;
    private final Map<String, Integer> columns;
    private final int width;
    private final String[] byColumn;

    /** Up to {@link #BLOCK} consecutive rows: their nodes, amounts and ladder steps, never written once built. */
    private static final class Block {
        final NodeInfo[] nodes;
        final long[] allocatable;   // [row * width + column]
        final long[] free;          // [row * width + column]
        final boolean[] hasNominated;
        final int[] ladderStart;    // row r's steps: ladderStart[r] .. ladderStart[r + 1]
        final int[] stepPriority;   // ascending within a row
        final long[] stepAtOrBelow; // [step * width + column]

        Block(NodeInfo[] nodes, String[] byColumn) {
            this(null, nodes, null, byColumn);
        }

        /**
         * {@code old} with the rows {@code changed} marks now holding {@code nodes}' nodes: only those
         * rows are read from their nodes, every other row's amounts and steps are copied as they were
         * ({@code old} null: every row is read). A binding changes one row; reading all 64 from their
         * nodes was a tenth of the verbs' time while pods bound (each call the first after a binding).
         */
        Block(Block old, NodeInfo[] nodes, boolean[] changed, String[] byColumn) {
            int width = byColumn.length;
            this.nodes = nodes;
            this.allocatable = old == null ? new long[nodes.length * width] : old.allocatable.clone();
            this.free = old == null ? new long[nodes.length * width] : old.free.clone();
            this.hasNominated = old == null ? new boolean[nodes.length] : old.hasNominated.clone();
            this.ladderStart = new int[nodes.length + 1];
            for (int r = 0; r < nodes.length; r++) {
                int steps = old == null || changed[r] ? nodes[r].ladder().steps() : old.ladderStart[r + 1] - old.ladderStart[r];
                ladderStart[r + 1] = ladderStart[r] + steps;
            }
            this.stepPriority = new int[ladderStart[nodes.length]];
            this.stepAtOrBelow = new long[ladderStart[nodes.length] * width];
            for (int r = 0; r < nodes.length; r++) {
                if (old == null || changed[r]) {
                    fill(r, byColumn);
                } else { // the row's steps where they now start
                    int from = old.ladderStart[r];
                    int steps = ladderStart[r + 1] - ladderStart[r];
                    System.arraycopy(old.stepPriority, from, stepPriority, ladderStart[r], steps);
                    System.arraycopy(old.stepAtOrBelow, from * width, stepAtOrBelow, ladderStart[r] * width, steps * width);
                }
            }
        }

        /** Writes row r's amounts and ladder steps from its node. */
        private void fill(int r, String[] byColumn) {
            int width = byColumn.length;
            NodeInfo node = nodes[r];
            for (int c = 0; c < width; c++) {
                allocatable[r * width + c] = node.allocatable().get(byColumn[c]);
                free[r * width + c] = allocatable[r * width + c] - node.requested().get(byColumn[c]);
            }
            hasNominated[r] = !node.nominatedPods().isEmpty();
            for (int k = 0; k < node.ladder().steps(); k++) {
                int step = ladderStart[r] + k;
                stepPriority[step] = node.ladder().priority(k);
                for (int c = 0; c < width; c++) {
                    stepAtOrBelow[step * width + c] = node.ladder().atOrBelow(k).get(byColumn[c]);
                }
            }
        }
    }

    private NodeTable(int size, Block[] blocks, NodeNameIndex names, Map<String, Integer> columns, String[] byColumn) {
        this.size = size;
        this.blocks = blocks;
        this.names = names;
        this.columns = columns;
        this.width = byColumn.length;
        this.byColumn = byColumn;
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
        Map<String, Integer> columns = columnsOf(nodes);
        String[] byColumn = new String[columns.size()];
        columns.forEach((name, column) -> byColumn[column] = name);
        Block[] blocks = new Block[(nodes.length + BLOCK - 1) / BLOCK];
        for (int b = 0; b < blocks.length; b++) {
            blocks[b] = new Block(Arrays.copyOfRange(nodes, b * BLOCK, Math.min(nodes.length, (b + 1) * BLOCK)), byColumn);
        }
        return new NodeTable(nodes.length, blocks, new NodeNameIndex(names), columns, byColumn);
    }

    /**
     * This table with some nodes replaced by newer versions of themselves, for the next snapshot: the
     * blocks that hold them are built again from their nodes, every other block is shared. Null when a
     * replaced node is not in this table or has a resource without a column: then the caller builds in
     * full.
     */
    public NodeTable withReplaced(Collection<NodeInfo> replaced) {
        Block[] next = blocks.clone();
        NodeInfo[][] touched = new NodeInfo[blocks.length][];
        boolean[][] changedRows = new boolean[blocks.length][];
        for (NodeInfo node : replaced) {
            int i = indexOf(node.name());
            if (i < 0 || !hasColumns(node.allocatable()) || !hasColumns(node.requested())) {
                return null; // the ladder sums a subset of what requested sums, so it has columns too
            }
            int b = i >>> SHIFT;
            if (touched[b] == null) {
                touched[b] = blocks[b].nodes.clone();
                changedRows[b] = new boolean[touched[b].length];
            }
            touched[b][i & (BLOCK - 1)] = node;
            changedRows[b][i & (BLOCK - 1)] = true;
        }
        for (int b = 0; b < touched.length; b++) {
            if (touched[b] != null) {
                next[b] = new Block(blocks[b], touched[b], changedRows[b], byColumn);
            }
        }
        return new NodeTable(size, next, names, columns, byColumn);
    }

    private boolean hasColumns(Resources resources) {
        for (int k = 0; k < resources.size(); k++) {
            if (!columns.containsKey(resources.name(k))) {
                return false;
            }
        }
        return true;
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
        return blocks[index >>> SHIFT].nodes[index & (BLOCK - 1)];
    }

    public int size() {
        return size;
    }

    public boolean hasNominated(int index) {
        return blocks[index >>> SHIFT].hasNominated[index & (BLOCK - 1)];
    }

    /** The column of a resource, or -1 when no node has or uses it (all its amounts are 0). */
    public int column(String resource) {
        Integer column = columns.get(resource);
        return column == null ? -1 : column;
    }

    public long allocatable(int index, int column) {
        return column < 0 ? 0 : blocks[index >>> SHIFT].allocatable[(index & (BLOCK - 1)) * width + column];
    }

    /** allocatable - requested of a resource on a node, by bound pods only; 0 for column -1. */
    public long free(int index, int column) {
        return column < 0 ? 0 : blocks[index >>> SHIFT].free[(index & (BLOCK - 1)) * width + column];
    }

    /**
     * What node {@code index}'s running pods below {@code priority} request of a column's resource, as
     * {@link PriorityLadder#below}; {@code step} from {@link #stepBelow} for the same node.
     */
    public long below(int index, int step, int column) {
        return step < 0 || column < 0 ? 0 : blocks[index >>> SHIFT].stepAtOrBelow[step * width + column];
    }

    /** The node's last ladder step below {@code priority}, or -1 when no running pod is below it. */
    public int stepBelow(int index, int priority) {
        Block block = blocks[index >>> SHIFT];
        int row = index & (BLOCK - 1);
        int low = block.ladderStart[row];
        int high = block.ladderStart[row + 1]; // first step at or above priority, by binary search
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (block.stepPriority[mid] < priority) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low == block.ladderStart[row] ? -1 : low - 1;
    }
}
