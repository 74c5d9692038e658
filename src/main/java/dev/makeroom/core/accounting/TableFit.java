package dev.makeroom.core.accounting;

import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.Resources;

/**
 * {@link FitCheck#shortMask} for one pod against many nodes of a {@link NodeTable}: the pod's
 * requests are matched to the table's columns once, then each node is checked from its row alone.
 * Only valid where a node's bound pods are all that is taken (no nominated pods, and not the pod's
 * own node); callers check those nodes with {@link NodeUsage}.
 */
public final class TableFit {

    private final NodeTable table;
    private final int podsColumn;
    private final int[] bits;     // the shortMask bit of each checked request
    private final int[] columns;
    private final long[] wants;

    public TableFit(NodeTable table, Resources podRequests) {
        this.table = table;
        this.podsColumn = table.column(Resources.PODS);
        int n = 0;
        int[] bits = new int[podRequests.size()];
        int[] columns = new int[podRequests.size()];
        long[] wants = new long[podRequests.size()];
        for (int i = 0; i < podRequests.size() && i < 63; i++) {
            if (podRequests.value(i) > 0 && !Resources.PODS.equals(podRequests.name(i))) {
                bits[n] = i + 1;
                columns[n] = table.column(podRequests.name(i));
                wants[n++] = podRequests.value(i);
            }
        }
        this.bits = java.util.Arrays.copyOf(bits, n);
        this.columns = java.util.Arrays.copyOf(columns, n);
        this.wants = java.util.Arrays.copyOf(wants, n);
    }

    public long shortMask(int node) {
        long mask = table.free(node, podsColumn) < 1 ? 1 : 0;
        for (int k = 0; k < bits.length; k++) {
            if (wants[k] > table.free(node, columns[k])) {
                mask |= 1L << bits[k];
            }
        }
        return mask;
    }
}
