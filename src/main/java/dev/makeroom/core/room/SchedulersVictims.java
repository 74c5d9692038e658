package dev.makeroom.core.room;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The answer for a node where the pending pod has a constraint makeroom does not model: the
 * victims the scheduler chose there, which its dry run checked against every one of its filters.
 * Never worse than the scheduler and never a set that cannot work — as long as makeroom's own
 * policies allow those victims; where they do not, the node is left out.
 */
public final class SchedulersVictims {

    private SchedulersVictims() {
    }

    /**
     * {@code hintedVictimUids}: the victims the scheduler chose on {@code node}; {@code what} says which
     * constraint makeroom does not model.
     */
    public static NodeVerdict verdict(ClusterSnapshot snapshot, PodInfo pending, String node,
                                      List<String> hintedVictimUids, String what, QueueRules rules, boolean strictPdb,
                                      WorkPrice.At work) {
        if (hintedVictimUids.isEmpty()) {
            return NodeVerdict.infeasible(node, InfeasibleReason.UNMODELLED_CONSTRAINT,
                    what + "; the scheduler named no victims here to keep", SearchStats.NONE);
        }
        List<PodInfo> victims = new ArrayList<>();
        for (String uid : hintedVictimUids) {
            PodInfo pod = snapshot.pod(uid); // present: stale hints were left out before
            Protection protection = Eligibility.toPreempt(pending, snapshot, rules).protectionOf(pod);
            if (protection != Protection.NONE) {
                return NodeVerdict.infeasible(node, InfeasibleReason.UNMODELLED_CONSTRAINT, what
                        + "; the scheduler's victim " + pod.ref() + " is " + protection.describe(), SearchStats.NONE);
            }
            victims.add(pod);
        }
        CandidatePool pool = new CandidatePool(victims, Resources.NONE, List.of(), Set.of(), snapshot::budgetsCovering,
                strictPdb, QueueFloors.NONE, work);
        boolean[] all = new boolean[victims.size()];
        Arrays.fill(all, true);
        long violations = pool.pdbViolations(all);
        if (strictPdb && violations > 0) {
            return NodeVerdict.infeasible(node, InfeasibleReason.PDB_WOULD_BE_VIOLATED,
                    what + "; the scheduler's victims would break a PodDisruptionBudget", SearchStats.NONE);
        }
        return new NodeVerdict(node, pool.victimSet(all, violations), null, what + "; kept the scheduler's victims",
                false, false, false, SearchStats.NONE);
    }
}
