package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.SchedulerFilterOracle;
import dev.makeroom.core.placement.Verdict;

import java.util.List;
import java.util.Map;

/**
 * The oracle of the planner's and defragmentation's properties, written apart from {@link PlannedCluster}:
 * whether {@code pod} may go to {@code node} when the nodes hold the pods {@code onNode} says — never a
 * cordoned node, the scheduler's filters as {@link SchedulerFilterOracle} writes them out, and, for a
 * pod moved off {@code from}, the spread and affinity of the pods that stay no worse than in {@code base},
 * where the round began ({@link KeptOracle}).
 */
public final class LandingOracle {

    private LandingOracle() {
    }

    public static boolean landsOn(ClusterSnapshot base, Map<String, List<PodInfo>> onNode, PodInfo pod, String node, String from) {
        ClusterSnapshot before = placed(base, onNode, null, null, null);
        NodeInfo target = before.node(node);
        if (target.admission().unschedulable() || SchedulerFilterOracle.of(before, pod, target).verdict() != Verdict.FITS) {
            return false;
        }
        if (from == null) {
            return true;
        }
        return KeptOracle.keeps(base, placed(base, onNode, pod, from, node), pod);
    }

    /** {@code base}'s nodes holding the pods {@code onNode} says. */
    public static ClusterSnapshot placed(ClusterSnapshot base, Map<String, List<PodInfo>> onNode) {
        return placed(base, onNode, null, null, null);
    }

    /** {@code base}'s nodes holding the pods {@code onNode} says, with {@code moved} (if any) taken from {@code from} to {@code to}. */
    private static ClusterSnapshot placed(ClusterSnapshot base, Map<String, List<PodInfo>> onNode, PodInfo moved,
                                          String from, String to) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (NodeInfo node : base.nodes()) {
            b.node(node.name(), node.labels(), node.allocatable(), node.admission());
            for (PodInfo pod : onNode.get(node.name())) {
                boolean isMoved = moved != null && pod.uid().equals(moved.uid()) && node.name().equals(from);
                b.pod(pod.toBuilder().nodeName(isMoved ? to : node.name()).build());
            }
        }
        return b.build();
    }
}
