package dev.makeroom.core.rounds.defragment;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PreemptionPolicy;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.rounds.LimitLedger;
import dev.makeroom.core.rounds.MoveBlocker;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.core.rounds.Skip;
import dev.makeroom.core.rounds.SkipCategory;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Which pending pods defragmentation helps, in what order, and why it leaves some alone. */
final class DefragmentCandidates {

    // highest priority first, then the longest unschedulable, then by name (deterministic)
    private static final Comparator<PodInfo> FIRST = Comparator.comparingInt((PodInfo p) -> -p.priority())
            .thenComparing(PodInfo::unschedulableSince).thenComparing(PodInfo::namespace).thenComparing(PodInfo::name);

    private DefragmentCandidates() {
    }

    /**
     * The pods the scheduler has found no node for since at least {@code after} ago, of a scheduler
     * that uses makeroom, not opted out ({@code makeroom.dev/defragment: "false"}) nor being deleted.
     */
    static List<PodInfo> waiting(ClusterSnapshot snapshot, DefragmentSettings settings, Instant now) {
        Instant since = now.minus(settings.after());
        return snapshot.pods().stream()
                .filter(p -> !p.isAssigned() && p.unschedulableSince() != null && !p.unschedulableSince().isAfter(since)
                        && settings.schedulerNames().contains(p.schedulerName()) && p.defragmentable() && !p.terminating())
                .sorted(FIRST).toList();
    }

    /** Why a waiting pod is not searched for; empty when it is. */
    static Optional<Skip> leftAlone(ClusterSnapshot snapshot, PodInfo pending, PreemptionCheck preemption, LimitLedger limits,
                          Instant now) {
        if (pending.nominatedNodeName() != null && !pending.nominatedNodeName().isEmpty()) {
            return skip(pending, SkipCategory.HELD, "nominated to " + pending.nominatedNodeName() + ": preemption makes room there");
        }
        for (NodeInfo node : snapshot.nodesWithReservations().values()) {
            for (Reservation reservation : node.admission().reservations()) {
                if (!reservation.isLanding() && reservation.pod().uid().equals(pending.uid())
                        && reservation.holds(pending, now)) {
                    return skip(pending, SkipCategory.HELD, "room is held for it on " + node.name() + " until "
                            + reservation.until());
                }
            }
        }
        if (!MoveBlocker.placementChecked(pending, snapshot)) {
            return skip(pending, SkipCategory.UNCHECKED_CONSTRAINTS, "it has placement constraints makeroom does not check"
                    + " (pod affinity, topology spread, zone anti-affinity or unmodelled): it cannot show the pod would fit");
        }
        if (limits.roundFull()) { // before preemption's answer, which costs a decision over every node
            return skip(pending, SkipCategory.LIMIT, "the round's or the hour's eviction limit is reached");
        }
        if (pending.preemptionPolicy() != PreemptionPolicy.NEVER && preemption.placesByPreemption(snapshot, pending)) {
            return skip(pending, SkipCategory.PREEMPTION, "preemption places it: left to the scheduler");
        }
        return Optional.empty();
    }

    private static Optional<Skip> skip(PodInfo pending, SkipCategory category, String reason) {
        return Optional.of(new Skip(pending.ref(), null, DefragmentPolicy.KIND, category, reason));
    }
}
