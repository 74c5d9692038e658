package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.room.NodeVerdict;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The preemptions this replica answered whose victims are still terminating on their node: room that
 * is coming.
 *
 * <p>Why: since Kubernetes 1.33 the scheduler deletes victims asynchronously, and it may call preempt
 * again for the same pod while the first victims terminate (seen on 1.36, with only the other node as
 * a candidate). Answering a second set of victims evicts a second pod and moves the nomination off
 * the node whose room is already coming. So a pod whose preemption is in flight gets no new victims:
 * the answer is empty (the scheduler keeps its nomination), and the pod binds when the victims are gone.
 *
 * <p>A preemption is in flight while any of its victims is still bound to its node and terminating in
 * the snapshot (the scheduler has acted on it), but no longer than the longest victim's grace period plus
 * {@link #SLACK} after the decision: a victim that never goes must not block the pod forever. Victims not
 * being deleted mean the scheduler did not enact the answer (another extender narrowed it, an API call
 * failed), and the pod may preempt again. Entries end with their time: dropped when asked after it,
 * and the map is swept of expired ones as it is written, so it holds at most the preemptions of the
 * last few minutes.
 */
public final class PreemptionsInFlight {

    /** Beyond the victims' grace period: the time a kubelet and the API server take to finish. */
    static final Duration SLACK = Duration.ofSeconds(30);

    private record Entry(String node, List<String> victimUids, Instant until) {
    }

    /** A preemption in flight for one pod: its node and the victims still terminating there. */
    public record InFlight(String node, List<PodRef> stillThere) {
        public String describe() {
            return "its preemption on " + node + " is in flight: waiting for "
                    + String.join(", ", stillThere.stream().map(PodRef::toString).toList()) + " to terminate";
        }
    }

    private final Map<String, Entry> byPod = new ConcurrentHashMap<>();

    /** Records a decision that chose victims: its first node is the one the scheduler nominates. */
    public void record(PodInfo pending, PreemptionDecision decision, Instant now) {
        if (decision.outcome() != DecisionOutcome.PREEMPT || decision.chosen().isEmpty()) {
            return;
        }
        NodeVerdict chosen = decision.chosen().get(0);
        long grace = 0;
        List<String> uids = new ArrayList<>();
        for (PodInfo victim : chosen.victims().victims()) {
            uids.add(victim.uid());
            grace = Math.max(grace, victim.terminationGracePeriodSeconds());
        }
        byPod.values().removeIf(e -> !e.until().isAfter(now));
        byPod.put(pending.uid(), new Entry(chosen.node(), List.copyOf(uids), now.plusSeconds(grace).plus(SLACK)));
    }

    /** The preemption in flight for {@code pending} on {@code snapshot} at {@code now}, or null when there is none. */
    public InFlight of(ClusterSnapshot snapshot, PodInfo pending, Instant now) {
        Entry entry = byPod.get(pending.uid());
        if (entry == null) {
            return null;
        }
        if (!entry.until().isAfter(now)) {
            byPod.remove(pending.uid(), entry);
            return null;
        }
        List<PodRef> there = new ArrayList<>();
        for (String uid : entry.victimUids()) {
            PodInfo victim = snapshot.pod(uid);
            if (victim != null && victim.terminating() && entry.node().equals(victim.nodeName())) {
                there.add(victim.ref());
            }
        }
        if (there.isEmpty()) {
            return null; // gone (room is real), or never deleted (not enacted): nothing holds the pod back
        }
        return new InFlight(entry.node(), List.copyOf(there));
    }
}
