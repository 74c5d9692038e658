package dev.makeroom.core.score;

import dev.makeroom.core.accounting.FitCheck;
import dev.makeroom.core.accounting.NodeUsage;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
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
 */
public final class ShieldScorePolicy {

    public static final int MAX_SCORE = 10;

    public List<NodeScore> score(ClusterSnapshot snapshot, PodInfo pod, List<String> nodeNames) {
        return score(snapshot, pod, nodeNames, AvoidList.NONE);
    }

    public List<NodeScore> score(ClusterSnapshot snapshot, PodInfo pod, List<String> nodeNames, AvoidList avoid) {
        List<NodeScore> scores = new ArrayList<>(nodeNames.size());
        String home = NodeUsage.homeOf(snapshot, pod);
        List<String> dimensions = dimensions(pod);
        for (String name : nodeNames) {
            NodeInfo node = snapshot.node(name);
            boolean scoresZero = node == null || avoid.avoid(pod, name);
            scores.add(new NodeScore(name, scoresZero ? 0 : score(node, pod, home, dimensions)));
        }
        return scores;
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
            long shielded = Math.max(0, Math.min(allocatable, freeAfter + lower.get(resource)));
            score = Math.min(score, tenths(shielded, allocatable));
        }
        return score;
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

    private static List<String> dimensions(PodInfo pod) {
        List<String> dims = new ArrayList<>();
        for (int i = 0; i < pod.requests().size(); i++) {
            if (pod.requests().value(i) > 0) {
                dims.add(pod.requests().name(i));
            }
        }
        return dims.isEmpty() ? List.of(Resources.CPU, Resources.MEMORY) : dims;
    }
}
