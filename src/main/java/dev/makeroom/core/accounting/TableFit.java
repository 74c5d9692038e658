package dev.makeroom.core.accounting;

import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.Resources;

/**
 * {@link FitCheck#shortMask} for one pod against many nodes of a {@link NodeTable}: the pod's
 * requests are matched to the table's columns once, then each node is checked from its row alone.
 * A row holds only what the node's bound pods take; where more counts ({@link #needsNode}), callers
 * check the node itself with {@link NodeUsage}.
 */
public final class TableFit {

    private final NodeTable table;
    private final int podsColumn;
    private final int[] bits;     // the shortMask bit of each checked request
    private final int[] columns;
    private final long[] wants;
    private final int homeIndex;

    /** {@code pendingHome}: where the view already has the pending pod bound, or null ({@link NodeUsage#homeOf}). */
    public TableFit(NodeTable table, Resources podRequests, String pendingHome) {
        this.table = table;
        this.homeIndex = pendingHome == null ? -1 : table.indexOf(pendingHome);
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

    /**
     * Whether more than the node's bound pods counts there, so its row alone cannot answer: pods
     * nominated to it (they count by priority), or the pending pod itself bound there.
     */
    public boolean needsNode(int node) {
        return table.hasNominated(node) || node == homeIndex;
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
