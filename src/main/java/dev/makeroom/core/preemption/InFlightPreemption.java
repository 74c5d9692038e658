package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * "A preemption for this pod is in flight", read from the cluster as every replica sees it, so two
 * replicas (or one that restarted) answer the same: the pod is nominated to a node on which pods of
 * lower priority are terminating. It is the scheduler's own rule for not preempting again (a nominated
 * pod whose lower-priority neighbours are going waits for them), written where makeroom's callers that
 * are not the scheduler (simulate, {@code --why}) meet it too. What the cluster does not show yet — the
 * scheduler answered, its nomination and deletions not yet seen by the watch — is what
 * {@link PreemptionsInFlight}, one replica's memory, keeps as a shortcut.
 */
public final class InFlightPreemption {

    private InFlightPreemption() {
    }

    /** The preemption in flight for {@code pending} as {@code snapshot} shows it; empty when none. */
    public static Optional<PreemptionsInFlight.InFlight> of(ClusterSnapshot snapshot, PodInfo pending) {
        String nominated = pending.nominatedNodeName();
        PodInfo seen = nominated == null ? snapshot.pod(pending.uid()) : null; // the body may predate the nomination
        if (seen != null) {
            nominated = seen.nominatedNodeName();
        }
        NodeInfo node = nominated == null || pending.isAssigned() ? null : snapshot.node(nominated);
        if (node == null) {
            return Optional.empty();
        }
        List<PodRef> going = new ArrayList<>();
        for (PodInfo pod : node.pods()) {
            if (pod.terminating() && pod.priority() < pending.priority()) {
                going.add(pod.ref());
            }
        }
        return going.isEmpty() ? Optional.empty() : Optional.of(new PreemptionsInFlight.InFlight(node.name(), going));
    }
}
