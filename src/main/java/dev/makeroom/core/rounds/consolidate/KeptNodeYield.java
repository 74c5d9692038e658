package dev.makeroom.core.rounds.consolidate;

import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.rounds.Round;
import dev.makeroom.core.rounds.defragment.DefragmentSettings;

import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * A node the consolidate policy keeps out of service (emptied and kept for the autoscaler, or being
 * emptied) yields to a pod that is waiting for it: one the scheduler found no node for, that would fit
 * on this node once its taint is gone and fits on no other node. Capacity kept for an autoscaler must
 * not leave such a pod pending while the autoscaler adds a node beside idle ones.
 *
 * <p>Only the highest-priority waiting pods are checked ({@link #CHECKED}): each costs a pass over every
 * node; they are found once a round, for all kept nodes. A pod one kept node yields to this round is
 * not counted again for another.
 */
final class KeptNodeYield {

    static final int CHECKED = 20;

    private static final Comparator<PodInfo> FIRST = Comparator.comparingInt((PodInfo p) -> -p.priority())
            .thenComparing(PodInfo::namespace).thenComparing(PodInfo::name);

    private KeptNodeYield() {
    }

    /** What the round's report says of a node released, or a drain abandoned, for {@code pod}. */
    static String why(PodInfo pod) {
        return pod.ref() + " waits for a node and fits on this one alone";
    }

    /**
     * The pod of {@code waiting} ({@link #waiting}) waiting for {@code kept}, for which it must go back into
     * service now, or null.
     */
    static PodInfo waitingFor(Round round, NodeInfo kept, List<PodInfo> waiting) {
        NodeInfo open = ConsolidationMark.released(kept);
        for (PodInfo pod : waiting) {
            if (round.yieldedFor().contains(pod.uid())) {
                continue;
            }
            PodPlacement placement = round.placementOf(pod);
            if (!placement.on(open).fits() || fitsElsewhere(round, placement, kept)) {
                continue;
            }
            round.yieldedFor().add(pod.uid());
            return pod;
        }
        return null;
    }

    /**
     * The pods the scheduler found no node for, of schedulers that use makeroom, not nominated anywhere.
     * Unlike defragmentation's candidates, at once (no {@code after}) and whatever their defragment
     * opt-out: releasing a node moves none of their neighbours.
     */
    static List<PodInfo> waiting(Round round) {
        Set<String> schedulers = round.settings(DefragmentSettings.class).schedulerNames();
        return round.snapshot().pods().stream()
                .filter(p -> !p.isAssigned() && p.unschedulableSince() != null && !p.terminating()
                        && p.nominatedNodeName() == null && schedulers.contains(p.schedulerName()))
                .sorted(FIRST).limit(CHECKED).toList();
    }

    private static boolean fitsElsewhere(Round round, PodPlacement placement, NodeInfo kept) {
        for (NodeInfo node : round.nodes()) {
            if (!node.name().equals(kept.name()) && placement.on(node).fits()) {
                return true;
            }
        }
        return false;
    }
}
