package dev.makeroom.core.score;

import dev.makeroom.core.accounting.FitCheck;
import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.accounting.TableFit;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.RequestedNodes;
import dev.makeroom.core.model.Resources;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Scores how well a node shields the pod from future preemption.
 *
 * <p>A later, more important pod preempts the lowest-priority pods first, so a pod is safest where,
 * after it lands, much of the node is either free or held by pods of lower priority than its own.
 * For each resource the pod requests (cpu and memory when it requests none), the shield is
 * {@code (free after placing the pod + requests of lower-priority pods) / allocatable}; the score is
 * {@code floor(10 × the smallest shield)}. A node where the pod does not fit, that makeroom does
 * not know, or that the {@link AvoidList} names for the pod, scores 0.
 *
 * <p>Nodes are read from the snapshot's {@link NodeTable}; a node where more than its bound pods
 * counts (pods nominated to it, or the pending pod itself) is scored from its {@link NodeInfo}.
 */
public final class ShieldScorePolicy {

    public static final int MAX_SCORE = 10;
    /** The dimensions of a pod that asks for nothing. */
    private static final List<String> UNASKED = List.of(Resources.CPU, Resources.MEMORY);

    public List<NodeScore> score(ClusterSnapshot snapshot, PodInfo pod, List<String> nodeNames) {
        return score(snapshot, pod, nodeNames, AvoidList.NONE);
    }

    public List<NodeScore> score(ClusterSnapshot snapshot, PodInfo pod, List<String> nodeNames, AvoidList avoid) {
        return score(snapshot, pod, RequestedNodes.resolve(snapshot.table(), nodeNames), avoid);
    }

    /** As above, for nodes whose rows in the snapshot's table the caller already found. */
    public List<NodeScore> score(ClusterSnapshot snapshot, PodInfo pod, RequestedNodes requested, AvoidList avoid) {
        RequestedNodes nodes = requested.against(snapshot.table());
        int[] scores = scoreInto(snapshot, pod, nodes, avoid, new int[nodes.size()]);
        List<NodeScore> list = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            list.add(new NodeScore(nodes.name(i), scores[i]));
        }
        return list;
    }

    /**
     * The score of each requested node, written to {@code into[i]} for the i-th node ({@code into} at
     * least as long as the request): the same scores as above, into an array a caller keeps from call to
     * call, so scoring 500 nodes allocates nothing per node. Returns {@code into}.
     */
    public int[] scoreInto(ClusterSnapshot snapshot, PodInfo pod, RequestedNodes requested, AvoidList avoid, int[] into) {
        NodeTable table = snapshot.table();
        RequestedNodes nodes = requested.against(table);
        String home = NodeUsage.homeOf(snapshot, pod);
        TableFit fit = new TableFit(table, pod.requests(), home);
        // the dimensions as the table's columns, with no list between: prioritize scores on every call
        Resources requests = pod.requests();
        int asked = 0;
        for (int i = 0; i < requests.size(); i++) {
            asked += isDimension(requests, i) ? 1 : 0;
        }
        int[] columns = new int[asked == 0 ? UNASKED.size() : asked];
        long[] wants = new long[columns.length]; // 0 for the unasked dimensions
        if (asked == 0) {
            for (int d = 0; d < columns.length; d++) {
                columns[d] = table.column(UNASKED.get(d));
            }
        }
        for (int i = 0, d = 0; d < asked; i++) {
            if (isDimension(requests, i)) {
                columns[d] = table.column(requests.name(i));
                wants[d++] = requests.value(i);
            }
        }
        List<String> dimensions = null; // by name, for the nodes whose row alone cannot answer
        for (int i = 0; i < nodes.size(); i++) {
            int index = nodes.row(i);
            int score;
            if (index < 0 || avoid.avoid(pod, nodes.name(i))) {
                score = 0;
            } else if (fit.needsNode(index)) {
                dimensions = dimensions == null ? dimensions(pod) : dimensions;
                score = score(table.node(index), pod, home, dimensions);
            } else {
                score = fit.shortMask(index) != 0 ? 0 : shieldFromRow(table, index, pod.priority(), columns, wants);
            }
            into[i] = score;
        }
        return into;
    }

    /** {@link #score(NodeInfo, PodInfo, String, List)} for a node that fits, from the table's row alone. */
    private static int shieldFromRow(NodeTable table, int index, int priority, int[] columns, long[] wants) {
        int step = table.stepBelow(index, priority);
        int score = MAX_SCORE;
        for (int d = 0; d < columns.length; d++) {
            long allocatable = table.allocatable(index, columns[d]);
            if (allocatable <= 0) {
                continue;
            }
            score = Math.min(score, shield(allocatable, table.free(index, columns[d]) - wants[d],
                    table.below(index, step, columns[d])));
        }
        return score;
    }

    int score(NodeInfo node, PodInfo pod, String pendingHome, List<String> dimensions) {
        Resources requested = NodeUsage.requestedFor(node, pod, pendingHome);
        if (!FitCheck.fits(node.allocatable(), requested, pod.requests())) {
            return 0;
        }
        Resources lower = node.ladder().below(pod.priority());
        if (node.name().equals(pendingHome)) {
            lower = withoutPendingItself(node, pod, lower);
        }
        int score = MAX_SCORE;
        for (String resource : dimensions) {
            long allocatable = node.allocatable().get(resource);
            if (allocatable <= 0) {
                continue;
            }
            long freeAfter = allocatable - requested.get(resource) - pod.requests().get(resource);
            score = Math.min(score, shield(allocatable, freeAfter, lower.get(resource)));
        }
        return score;
    }

    /**
     * The rule, for one resource of a node where the pod fits: what stays free once it lands plus what
     * lower-priority pods hold, in tenths of what the node has. Both ways of reading a node use it.
     */
    static int shield(long allocatable, long freeAfter, long lower) {
        return tenths(Math.max(0, Math.min(allocatable, freeAfter + lower)), allocatable);
    }

    /** floor(10 × part / whole) for 0 ≤ part ≤ whole, exact in integers (falls back to BigInteger near overflow). */
    static int tenths(long part, long whole) {
        if (part <= Long.MAX_VALUE / MAX_SCORE) {
            return (int) (part * MAX_SCORE / whole);
        }
        return BigInteger.valueOf(part).multiply(BigInteger.TEN).divide(BigInteger.valueOf(whole)).intValueExact();
    }

    /** The view may already show the pending pod bound here; it does not shield itself. */
    private static Resources withoutPendingItself(NodeInfo node, PodInfo pod, Resources lower) {
        for (PodInfo other : node.pods()) {
            if (other.uid().equals(pod.uid()) && other.priority() < pod.priority() && !other.terminating()) {
                return lower.minus(other.requests());
            }
        }
        return lower;
    }

    static List<String> dimensions(PodInfo pod) {
        List<String> dims = new ArrayList<>();
        for (int i = 0; i < pod.requests().size(); i++) {
            if (isDimension(pod.requests(), i)) {
                dims.add(pod.requests().name(i));
            }
        }
        return dims.isEmpty() ? UNASKED : dims;
    }

    /** Whether the pod's request {@code i} is a dimension it is scored on: it asks for some. */
    private static boolean isDimension(Resources requests, int i) {
        return requests.value(i) > 0;
    }
}
