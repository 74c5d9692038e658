package dev.makeroom.core.rounds.duplicates;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.rounds.PolicySection;
import dev.makeroom.core.rounds.Relocation;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.Round;
import dev.makeroom.core.rounds.RoundPolicy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The duplicates policy (the descheduler's RemoveDuplicates): more than one pod of a controller on a
 * node, when another node that takes one holds at least two fewer of them, so a node's failure takes
 * fewer replicas with it. A pod moves only to such a node (so the counts only even out, and a plan
 * applied and planned again moves nothing back), the least used of them that takes it, lowest priority
 * then newest first; DaemonSet pods, one per node by design, are never duplicates.
 */
public final class DuplicatesPolicy implements RoundPolicy<DuplicatesSettings> {

    /**
     * Its name in moves and skips; it moves a pod off a node that holds more pods of its controller than another
     * node that takes it would.
     */
    public static final ReschedulePolicy KIND = new ReschedulePolicy("DUPLICATES");

    @Override
    public ReschedulePolicy kind() {
        return KIND;
    }

    @Override
    public String section() {
        return "duplicates";
    }

    @Override
    public Set<String> keys() {
        return Set.of("enabled");
    }

    @Override
    public Class<DuplicatesSettings> settingsType() {
        return DuplicatesSettings.class;
    }

    /** Off unless turned on. */
    @Override
    public DuplicatesSettings read(PolicySection section) {
        return new DuplicatesSettings(section.bool("enabled", false));
    }

    @Override
    public void plan(Round round) {
        Map<String, Map<String, Integer>> perNode = new HashMap<>(); // controller uid -> node -> its pods there
        for (NodeInfo node : round.nodes()) {
            for (PodInfo pod : round.podsOn(node)) {
                if (counted(pod)) {
                    perNode.computeIfAbsent(pod.controller().uid(), k -> new HashMap<>()).merge(node.name(), 1, Integer::sum);
                }
            }
        }
        for (NodeInfo node : round.nodes()) {
            Map<String, List<PodInfo>> byController = new LinkedHashMap<>();
            for (PodInfo pod : round.podsOn(node)) {
                if (counted(pod) && !round.movedAlready(pod)) {
                    byController.computeIfAbsent(pod.controller().uid(), k -> new ArrayList<>()).add(pod);
                }
            }
            for (List<PodInfo> pods : byController.values()) {
                if (pods.size() > 1 && !round.full()) {
                    spreadOut(round, node, pods, perNode.get(pods.get(0).controller().uid()));
                }
            }
        }
    }

    private static boolean counted(PodInfo pod) {
        return pod.controller() != null && !pod.controller().isDaemonSet() && !pod.terminating();
    }

    /** Moves the node's pods of one controller, one at a time, while a node holding two fewer takes one. */
    private static void spreadOut(Round round, NodeInfo node, List<PodInfo> pods,
                                  Map<String, Integer> counts) {
        List<PodInfo> candidates = new ArrayList<>(pods);
        candidates.sort(Round.SHED_FIRST);
        OwnerRef controller = pods.get(0).controller();
        for (PodInfo pod : candidates) {
            int here = counts.getOrDefault(node.name(), 0);
            if (here < 2 || round.full()) {
                return;
            }
            if (!round.movable(pod, node, KIND)) {
                continue;
            }
            if (round.relocate(pod, node, KIND, here + " pods of "
                    + controller.kind() + " " + controller.name() + " on " + node.name(), round.nodes(),
                    target -> counts.getOrDefault(target.name(), 0) <= here - 2 && round.landingAllowed(target, pod))
                    instanceof Relocation.Moved moved) {
                counts.merge(node.name(), -1, Integer::sum);
                counts.merge(moved.to().name(), 1, Integer::sum);
            }
        }
    }
}
