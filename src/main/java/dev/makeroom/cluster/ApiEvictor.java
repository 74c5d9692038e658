package dev.makeroom.cluster;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.rounds.NodeTaints;
import dev.makeroom.core.rounds.RoomPlan;
import dev.makeroom.mapping.AvoidPodsAnnotation;
import dev.makeroom.mapping.NodeTaintEdit;
import dev.makeroom.mapping.ReservationAnnotation;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.RoomHold;
import dev.makeroom.core.rounds.Move;
import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;

/**
 * Enacts moves through the API: the policy/v1 Eviction subresource only (so budgets are honoured,
 * never DELETE), then an Event on the pod and an entry in the left node's avoid list
 * ({@link AvoidPodsAnnotation}); holds room made for a pending pod in its node's annotation
 * ({@link ReservationAnnotation}) and tells the pod with an Event; taints and untaints the nodes the
 * consolidate policy empties. With {@link PreemptionEvents}, the only code in makeroom that writes to the
 * cluster.
 */
public final class ApiEvictor implements Evictor, RoomHold, NodeTaints, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ApiEvictor.class);

    private final KubernetesClient client;
    private final Clock clock;
    private final Duration avoidFor;

    /**
     * {@code client} gives the API's address and credentials; evictions go out on a client of their own
     * that does not retry, since fabric8 otherwise retries a budget's 429 with backoff for many seconds,
     * holding up the round, where the rescheduler wants to hear it at once and move on.
     */
    public ApiEvictor(KubernetesClient client, Clock clock, Duration avoidFor) {
        this.client = UnretriedClient.of(client.getConfiguration());
        this.clock = clock;
        this.avoidFor = avoidFor;
    }

    @Override
    public EvictionOutcome evict(PodInfo pod, Move move) {
        EvictionOutcome outcome = post(pod, null, "evicted");
        if (outcome.result() != EvictionOutcome.Result.EVICTED) {
            return outcome;
        }
        tell(pod, "Rescheduled", "evicted by makeroom (" + move.policy().name().toLowerCase() + "): " + move.reason()
                + "; expected to land on " + move.to());
        avoid(pod, move);
        return outcome;
    }

    @Override
    public EvictionOutcome wouldEvict(PodInfo pod) {
        Eviction dryRun = new EvictionBuilder().withNewMetadata().withName(pod.name()).withNamespace(pod.namespace())
                .endMetadata().withDeleteOptions(new DeleteOptionsBuilder().withDryRun("All").build()).build();
        return post(pod, dryRun, "would be evicted");
    }

    /** Posts the pod's eviction ({@code eviction} null: the plain one) and says what the API answered. */
    private EvictionOutcome post(PodInfo pod, Eviction eviction, String evicted) {
        try {
            var resource = client.pods().inNamespace(pod.namespace()).withName(pod.name());
            return (eviction == null ? resource.evict() : resource.evict(eviction))
                    ? new EvictionOutcome(EvictionOutcome.Result.EVICTED, evicted)
                    : new EvictionOutcome(EvictionOutcome.Result.BLOCKED_BY_BUDGET,
                    "a PodDisruptionBudget does not allow it now (429)");
        } catch (KubernetesClientException e) {
            return e.getCode() == 404 ? new EvictionOutcome(EvictionOutcome.Result.GONE, "the pod is gone (404)")
                    : new EvictionOutcome(EvictionOutcome.Result.FAILED, "HTTP " + e.getCode() + ": " + e.getMessage());
        }
    }

    /** An Event on the pod, so `kubectl describe` and event exporters show what makeroom did and why. */
    private void tell(PodInfo pod, String reason, String message) {
        tell(pod.ref(), reason, message);
    }

    private void tell(PodRef pod, String reason, String message) {
        try {
            client.v1().events().inNamespace(pod.namespace())
                    .resource(MakeroomEvent.onPod(pod, reason, message, clock.instant())).create();
        } catch (KubernetesClientException e) {
            log.warn("could not record an Event for {}: {}", pod, e.getMessage());
        }
    }

    /** Keeps the pod's controller off the node it left for a while (best effort: the eviction stands either way). */
    private void avoid(PodInfo pod, Move move) {
        try {
            client.nodes().withName(move.from()).edit(node -> AvoidPodsAnnotation.with(node, pod.controller(),
                    "makeroom " + move.policy().name().toLowerCase(), move.reason(), clock.instant(), avoidFor));
        } catch (KubernetesClientException e) {
            log.warn("could not record {} in the avoid list of {}: {}", pod.controller().name(), move.from(), e.getMessage());
        }
    }

    @Override
    public boolean reserve(String node, Reservation reservation) {
        try {
            client.nodes().withName(node).edit(n -> ReservationAnnotation.with(n, reservation));
            return true;
        } catch (KubernetesClientException e) {
            log.warn("could not reserve {} for {}: {}", node, reservation.pod(), e.getMessage());
            return false;
        }
    }

    @Override
    public void release(String node, String uid) {
        try {
            client.nodes().withName(node).edit(n -> ReservationAnnotation.without(n, uid));
        } catch (KubernetesClientException e) {
            log.debug("could not end the reservation on {}: {}", node, e.getMessage());
        }
    }

    @Override
    public void announce(PodInfo pending, RoomPlan room) {
        if (pending != null) {
            int n = room.moves().size();
            tell(pending, "MakingRoom", "makeroom moves " + n + (n == 1 ? " pod" : " pods") + " off node " + room.node()
                    + " to make room; the node is held for this pod until " + room.reserveUntil());
        }
    }

    @Override
    public void yielded(PodRef pod, String node, String message) {
        tell(pod, "NodeReleased", message);
    }

    @Override
    public void landed(PodInfo replacement, String message) {
        tell(replacement, "Landed", message);
    }

    @Override
    public boolean taint(String node, Taint taint) {
        try {
            client.nodes().withName(node).edit(n -> NodeTaintEdit.with(n, taint));
            return true;
        } catch (KubernetesClientException e) {
            log.warn("could not taint {} with {}: {}", node, taint.key(), e.getMessage());
            return false;
        }
    }

    @Override
    public boolean untaint(String node, String key) {
        try {
            client.nodes().withName(node).edit(n -> NodeTaintEdit.without(n, key));
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return true; // the node is gone: nothing left to untaint
            }
            log.warn("could not remove the taint {} from {}: {}", key, node, e.getMessage());
            return false;
        }
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public void expireAvoidances(String node) {
        try {
            client.nodes().withName(node).edit(n -> AvoidPodsAnnotation.expired(n, clock.instant()));
        } catch (KubernetesClientException e) {
            log.debug("could not expire the avoid list of {}: {}", node, e.getMessage());
        }
    }
}
