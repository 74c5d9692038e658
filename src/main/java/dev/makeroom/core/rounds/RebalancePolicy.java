package dev.makeroom.core.rounds;

import java.util.Set;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rebalance policy: nodes above a {@code high} threshold, most loaded first, shed pods lowest
 * priority first (then newest) that request the resources over, each to the node with the lowest use
 * that is below every {@code low} threshold and stays at or below them with the pod. A target never
 * rises above {@code low}, hence never above {@code high}, so a plan applied and planned again moves
 * nothing back.
 */
final class RebalancePolicy implements RoundPolicy<RebalanceSettings> {

    @Override
    public ReschedulePolicy kind() {
        return ReschedulePolicy.REBALANCE;
    }

    @Override
    public String section() {
        return "rebalance";
    }

    @Override
    public Set<String> keys() {
        return Set.of("enabled", "low", "high");
    }

    @Override
    public Class<RebalanceSettings> settingsType() {
        return RebalanceSettings.class;
    }

    /**
     * Off unless turned on; the thresholds the document leaves out are the aggressiveness's (cpu and
     * memory), none without one; on, it needs both, and each {@code low} below its {@code high}.
     */
    @Override
    public RebalanceSettings read(PolicySection section) {
        Aggressiveness level = section.level();
        Map<String, Integer> low = section.percents("low", level == null ? Map.of()
                : Map.of("cpu", level.lowPercent(), "memory", level.lowPercent()));
        Map<String, Integer> high = section.percents("high", level == null ? Map.of()
                : Map.of("cpu", level.highPercent(), "memory", level.highPercent()));
        boolean enabled = section.bool("enabled", false);
        if (enabled && (low.isEmpty() || high.isEmpty())) {
            throw new InvalidPolicySettingsException("policies.rebalance needs low and high thresholds");
        }
        low.forEach((resource, percent) -> {
            Integer most = high.get(resource);
            if (most != null && percent >= most) {
                throw new InvalidPolicySettingsException(section.path("low") + "." + resource + " (" + percent
                        + ") must be below " + section.path("high") + "." + resource + " (" + most + ")");
            }
        });
        return new RebalanceSettings(enabled, low, high);
    }

    @Override
    public void plan(Round round) {
        Map<String, Integer> high = round.settings.policy(RebalanceSettings.class).highPercent();
        Map<String, Integer> low = round.settings.policy(RebalanceSettings.class).lowPercent();
        Map<String, Double> loads = new HashMap<>();
        List<NodeInfo> over = new ArrayList<>();
        for (NodeInfo n : round.nodes) {
            if (!overResources(round, n, high).isEmpty()) {
                over.add(n);
                loads.put(n.name(), round.planned.load(n, high.keySet()));
            }
        }
        over.sort(Comparator.comparingDouble((NodeInfo n) -> -loads.get(n.name())).thenComparing(NodeInfo::name));
        // only nodes below every low threshold now can take pods; moves only fill them, so the list only shrinks
        List<NodeInfo> under = new ArrayList<>(round.nodes.stream().filter(n -> round.staysBelow(n, null, low)).toList());
        for (NodeInfo node : over) {
            List<PodInfo> pods = new ArrayList<>(round.planned.podsOn(node));
            pods.sort(Round.SHED_FIRST);
            for (PodInfo pod : pods) {
                if (round.moved.contains(pod.uid())) {
                    continue;
                }
                List<String> overNow = overResources(round, node, high);
                if (overNow.isEmpty() || round.limits.roundFull()) {
                    break;
                }
                if (overNow.stream().noneMatch(r -> pod.requests().get(r) > 0)) {
                    continue; // moving it would not help
                }
                if (round.limits.nodeFull(node.name())) {
                    round.skip(new Skip(pod.ref(), node.name(), ReschedulePolicy.REBALANCE, SkipCategory.LIMIT,
                            "above " + describe(overNow, high) + "; not moved: "
                                    + limitText(round.limits.exceeded(pod, node.name()))));
                    break; // the node's other pods would hit the same limit
                }
                if (round.movable(pod, node, ReschedulePolicy.REBALANCE)) {
                    under.removeIf(target -> !round.staysBelow(target, null, low));
                    round.relocate(pod, node, ReschedulePolicy.REBALANCE, "above " + describe(overNow, high), under,
                            target -> round.staysBelow(target, pod, low));
                }
            }
        }
    }

    private static List<String> overResources(Round round, NodeInfo node, Map<String, Integer> high) {
        List<String> over = new ArrayList<>();
        high.forEach((resource, percent) -> {
            if (round.planned.percent(node, resource) > percent) {
                over.add(resource);
            }
        });
        over.sort(Comparator.naturalOrder());
        return over;
    }

    /** A limit the node is full by, in words (nodeFull said one is passed). */
    private static String limitText(LimitCheck check) {
        return check instanceof LimitCheck.Passed passed ? passed.text() : "the node's limit for this round";
    }

    private static String describe(List<String> resources, Map<String, Integer> high) {
        return String.join(", ", resources.stream().map(r -> r + " " + high.get(r) + "%").toList());
    }
}
