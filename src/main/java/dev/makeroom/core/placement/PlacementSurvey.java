package dev.makeroom.core.placement;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.queue.QueueOverMax;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the scheduler could place a pod now, node by node (by name), each node's {@link Placement}
 * ({@link #on}; the lists and maps by verdict are made when asked, each in one pass):
 * the nodes it fits on; those where removing pods could help ({@link #unschedulable}: the only ones the
 * scheduler's preemption considers); those where nothing on the node can ({@link #unresolvable}); and
 * those makeroom cannot tell ({@link #unknown}); each with the first failing filter's reason. What
 * {@code /debug/simulate} and {@code --why} answer before preemption.
 */
public final class PlacementSurvey {

    private final Map<String, Placement> byNode; // in name order

    private PlacementSurvey(Map<String, Placement> byNode) {
        this.byNode = Collections.unmodifiableMap(byNode);
    }

    /** Every node of {@code state} for {@code pod}, with the queue fence {@code fence}. */
    public static PlacementSurvey of(PlacementState state, PodInfo pod, Optional<QueueOverMax> fence) {
        return of(PodPlacement.of(state, pod, fence));
    }

    /** Every node of the placement's state, with that placement's pre-filters (shared with a preemption that follows). */
    public static PlacementSurvey of(PodPlacement placement) {
        Map<String, Placement> byNode = new LinkedHashMap<>();
        for (NodeInfo node : placement.state().nodes().stream().sorted(Comparator.comparing(NodeInfo::name)).toList()) {
            byNode.put(node.name(), placement.on(node));
        }
        return new PlacementSurvey(byNode);
    }

    /** The pod's placement on {@code node}, or null for a node the survey did not see. */
    public Placement on(String node) {
        return byNode.get(node);
    }

    /** The nodes the pod fits on, in name order. */
    public List<String> fits() {
        List<String> fits = new ArrayList<>();
        byNode.forEach((node, placement) -> {
            if (placement.fits()) {
                fits.add(node);
            }
        });
        return fits;
    }

    /** The nodes where removing pods could help, each with why the pod does not fit now. */
    public Map<String, String> unschedulable() {
        return reasons(Verdict.UNSCHEDULABLE);
    }

    /** The nodes where nothing on the node can help, each with why. */
    public Map<String, String> unresolvable() {
        return reasons(Verdict.UNRESOLVABLE);
    }

    /** The nodes makeroom cannot tell about, each with what it does not model. */
    public Map<String, String> unknown() {
        return reasons(Verdict.UNKNOWN);
    }

    /** The nodes preemption may try, in name order. */
    public List<String> preemptionCandidates() {
        return List.copyOf(unschedulable().keySet());
    }

    private Map<String, String> reasons(Verdict verdict) {
        Map<String, String> reasons = new LinkedHashMap<>();
        byNode.forEach((node, placement) -> {
            if (placement.verdict() == verdict) {
                reasons.put(node, placement.reason());
            }
        });
        return reasons;
    }
}
