package dev.makeroom.core.placement;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the scheduler could place a pod now, node by node (by name): the nodes it fits on; those where
 * removing pods could help ({@code unschedulable}: the only ones the scheduler's preemption considers);
 * those where nothing on the node can ({@code unresolvable}); and those makeroom cannot tell
 * ({@code unknown}); each with the first failing filter's reason. What {@code /debug/simulate} and
 * {@code --why} answer before preemption.
 */
public record PlacementSurvey(List<String> fits, Map<String, String> unschedulable, Map<String, String> unresolvable,
                              Map<String, String> unknown) {

    public PlacementSurvey {
        fits = List.copyOf(fits);
        unschedulable = Collections.unmodifiableMap(new LinkedHashMap<>(unschedulable));
        unresolvable = Collections.unmodifiableMap(new LinkedHashMap<>(unresolvable));
        unknown = Collections.unmodifiableMap(new LinkedHashMap<>(unknown));
    }

    /** Every node of {@code state} for {@code pod}, with the queue fence {@code fence} (null: none). */
    public static PlacementSurvey of(PlacementState state, PodInfo pod, String fence) {
        return of(PodPlacement.of(state, pod, fence));
    }

    /** Every node of the placement's state, with that placement's pre-filters (shared with a preemption that follows). */
    public static PlacementSurvey of(PodPlacement placement) {
        PlacementState state = placement.state();
        List<String> fits = new ArrayList<>();
        Map<String, String> unschedulable = new LinkedHashMap<>();
        Map<String, String> unresolvable = new LinkedHashMap<>();
        Map<String, String> unknown = new LinkedHashMap<>();
        for (NodeInfo node : state.nodes().stream().sorted(Comparator.comparing(NodeInfo::name)).toList()) {
            Placement answer = placement.on(node);
            switch (answer.verdict()) {
                case FITS -> fits.add(node.name());
                case UNSCHEDULABLE -> unschedulable.put(node.name(), answer.reason());
                case UNRESOLVABLE -> unresolvable.put(node.name(), answer.reason());
                case UNKNOWN -> unknown.put(node.name(), answer.reason());
            }
        }
        return new PlacementSurvey(fits, unschedulable, unresolvable, unknown);
    }

    /** The nodes preemption may try, in name order. */
    public List<String> preemptionCandidates() {
        return List.copyOf(unschedulable.keySet());
    }

    /** Why the pod cannot go to {@code node} now, or null when it fits there. */
    public String reasonOn(String node) {
        String reason = unschedulable.get(node);
        if (reason == null) {
            reason = unresolvable.get(node);
        }
        return reason == null ? unknown.get(node) : reason;
    }
}
