package dev.makeroom.core.model;

import java.util.Collection;
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
 * <p>Built once per snapshot, on first use ({@link ClusterSnapshot#table()}). Nodes with pods
 * nominated to them are flagged: what is taken there depends on the pending pod's priority, so
 * callers answer them from the {@link NodeInfo} itself.
 */
public final class NodeTable {

    private final NodeInfo[] nodes;
    private final NodeNameIndex names;
    private final Map<String, Integer> columns;
    private final int width;
    private final long[] allocatable; // [node * width + column]
    private final long[] free;        // [node * width + column]
    private final boolean[] hasNominated;
    private final int[] ladderStart;  // node i's steps: ladderStart[i] .. ladderStart[i + 1]
    private final int[] stepPriority; // ascending within a node
    private final long[] stepAtOrBelow; // [step * width + column]

    private NodeTable(Collection<NodeInfo> all) {
        nodes = all.toArray(new NodeInfo[0]);
        String[] nameArray = new String[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            nameArray[i] = nodes[i].name();
        }
        names = new NodeNameIndex(nameArray);
        columns = columnsOf(nodes);
        width = columns.size();
        String[] byColumn = new String[width];
        columns.forEach((name, column) -> byColumn[column] = name);
        allocatable = new long[nodes.length * width];
        free = new long[nodes.length * width];
        hasNominated = new boolean[nodes.length];
        ladderStart = new int[nodes.length + 1];
        for (int i = 0; i < nodes.length; i++) {
            ladderStart[i + 1] = ladderStart[i] + nodes[i].ladder().steps();
        }
        stepPriority = new int[ladderStart[nodes.length]];
        stepAtOrBelow = new long[ladderStart[nodes.length] * width];
        for (int i = 0; i < nodes.length; i++) {
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
    }

    static NodeTable of(Collection<NodeInfo> nodes) {
        return new NodeTable(nodes);
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

    /**
     * The node's index in this table, or -1 when the snapshot has no node of that name. A name
     * from {@link #canonicalName} is found by identity, without comparing its text.
     */
    public int indexOf(String name) {
        return names.indexOf(name);
    }

    /**
     * This snapshot's own String for a node name given as characters (as a JSON parser holds it),
     * or null when no node has that name.
     */
    public String canonicalName(char[] chars, int offset, int length) {
        return names.canonicalName(chars, offset, length);
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
