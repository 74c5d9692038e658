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
        for (int i = 0; i < podRequests.size() && i < 63; i++) {
            n += asked(podRequests, i) ? 1 : 0;
        }
        // arrays of the size they end at (counted first): prioritize makes one fit on every call
        this.bits = new int[n];
        this.columns = new int[n];
        this.wants = new long[n];
        for (int i = 0, k = 0; k < n; i++) {
            if (asked(podRequests, i)) {
                bits[k] = i + 1;
                columns[k] = table.column(podRequests.name(i));
                wants[k++] = podRequests.value(i);
            }
        }
    }

    /** Whether the pod asks for some of resource {@code i} that its node's row answers for (pods are counted apart). */
    private static boolean asked(Resources requests, int i) {
        return requests.value(i) > 0 && !Resources.PODS.equals(requests.name(i));
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
