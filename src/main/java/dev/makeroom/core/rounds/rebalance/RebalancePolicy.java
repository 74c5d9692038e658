package dev.makeroom.core.rounds.rebalance;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.rounds.Aggressiveness;
import dev.makeroom.core.rounds.InvalidPolicySettingsException;
import dev.makeroom.core.rounds.LandingRule;
import dev.makeroom.core.rounds.PolicySection;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.Round;
import dev.makeroom.core.rounds.RoundPolicy;
import dev.makeroom.core.rounds.Skip;
import dev.makeroom.core.rounds.SkipCategory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The rebalance policy: nodes above a {@code high} threshold, most loaded first, shed pods lowest
 * priority first (then newest) that request the resources over, each to the node with the lowest use
 * that is below every {@code low} threshold and stays at or below them with the pod. A target never
 * rises above {@code low}, hence never above {@code high}, so a plan applied and planned again moves
 * nothing back.
 */
public final class RebalancePolicy implements RoundPolicy<RebalanceSettings> {

    /**
     * Its name in moves and skips; it moves a pod from a node above its high thresholds to one below its low
     * thresholds.
     */
    public static final ReschedulePolicy KIND = new ReschedulePolicy("REBALANCE");

    @Override
    public ReschedulePolicy kind() {
        return KIND;
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

    /** With rebalancing on, a pod moved for another policy must not make its new node one to rebalance. */
    @Override
    public LandingRule landingRule(RescheduleSettings settings) {
        RebalanceSettings rebalance = settings.policy(RebalanceSettings.class);
        return rebalance.enabled() ? (round, target, pod) -> round.staysAtOrUnder(target, pod, rebalance.highPercent())
                : LandingRule.NONE;
    }

    @Override
    public void plan(Round round) {
        Map<String, Integer> high = round.settings(RebalanceSettings.class).highPercent();
        Map<String, Integer> low = round.settings(RebalanceSettings.class).lowPercent();
        Map<String, Double> loads = new HashMap<>();
        List<NodeInfo> over = new ArrayList<>();
        for (NodeInfo n : round.nodes()) {
            if (!overResources(round, n, high).isEmpty()) {
                over.add(n);
                loads.put(n.name(), round.load(n, high.keySet()));
            }
        }
        over.sort(Comparator.comparingDouble((NodeInfo n) -> -loads.get(n.name())).thenComparing(NodeInfo::name));
        // only nodes below every low threshold now can take pods; moves only fill them, so the list only shrinks
        List<NodeInfo> under = new ArrayList<>(round.nodes().stream().filter(n -> round.staysBelow(n, null, low)).toList());
        for (NodeInfo node : over) {
            List<PodInfo> pods = new ArrayList<>(round.podsOn(node));
            pods.sort(Round.SHED_FIRST);
            for (PodInfo pod : pods) {
                if (round.movedAlready(pod)) {
                    continue;
                }
                List<String> overNow = overResources(round, node, high);
                if (overNow.isEmpty() || round.full()) {
                    break;
                }
                if (overNow.stream().noneMatch(r -> pod.requests().get(r) > 0)) {
                    continue; // moving it would not help
                }
                Optional<String> spent = round.nodeSpent(pod, node);
                if (spent.isPresent()) {
                    round.skip(new Skip(pod.ref(), node.name(), KIND, SkipCategory.LIMIT,
                            "above " + describe(overNow, high) + "; not moved: " + spent.get()));
                    break; // the node's other pods would hit the same limit
                }
                if (round.movable(pod, node, KIND)) {
                    under.removeIf(target -> !round.staysBelow(target, null, low));
                    round.relocate(pod, node, KIND, "above " + describe(overNow, high), under,
                            target -> round.staysBelow(target, pod, low));
                }
            }
        }
    }

    private static List<String> overResources(Round round, NodeInfo node, Map<String, Integer> high) {
        List<String> over = new ArrayList<>();
        high.forEach((resource, percent) -> {
            if (round.percent(node, resource) > percent) {
                over.add(resource);
            }
        });
        over.sort(Comparator.naturalOrder());
        return over;
    }

    private static String describe(List<String> resources, Map<String, Integer> high) {
        return String.join(", ", resources.stream().map(r -> r + " " + high.get(r) + "%").toList());
    }
}
