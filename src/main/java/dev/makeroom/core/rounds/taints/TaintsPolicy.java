package dev.makeroom.core.rounds.taints;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.rounds.PolicySection;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.Round;
import dev.makeroom.core.rounds.RoundPolicy;

import java.util.List;
import java.util.Set;

/**
 * The taints policy (the descheduler's RemovePodsViolatingNodeTaints): a pod on a node with a
 * NoSchedule taint it does not tolerate — placed before the taint came, as when a node is tainted for
 * maintenance or a dedicated pool — moves to the least used node that takes it. With keys listed, only
 * taints of those keys count. NoExecute taints are the taint manager's, which evicts by itself.
 */
public final class TaintsPolicy implements RoundPolicy<TaintsSettings> {

    /** Its name in moves and skips; it moves a pod off a node with a NoSchedule taint it does not tolerate. */
    public static final ReschedulePolicy KIND = new ReschedulePolicy("TAINTS");

    @Override
    public ReschedulePolicy kind() {
        return KIND;
    }

    @Override
    public String section() {
        return "taints";
    }

    @Override
    public Set<String> keys() {
        return Set.of("enabled", "keys");
    }

    @Override
    public Class<TaintsSettings> settingsType() {
        return TaintsSettings.class;
    }

    /** Off unless turned on; every taint key unless some are listed. */
    @Override
    public TaintsSettings read(PolicySection section) {
        return new TaintsSettings(section.bool("enabled", false), Set.copyOf(section.names("keys", List.of())));
    }

    @Override
    public void plan(Round round) {
        TaintsSettings settings = round.settings(TaintsSettings.class);
        for (NodeInfo node : round.nodes()) {
            for (PodInfo pod : List.copyOf(round.podsOn(node))) {
                Taint taint = untolerated(node, pod, settings);
                if (taint == null || round.movedAlready(pod) || round.full()) {
                    continue;
                }
                if (round.movable(pod, node, KIND)) {
                    round.relocate(pod, node, KIND, node.name() + " has the taint " + spelled(taint)
                            + ", which it does not tolerate", round.nodes(), target -> round.landingAllowed(target, pod));
                }
            }
        }
    }

    /** The node's first NoSchedule taint of a listed key (any key when none are) the pod does not tolerate, or null. */
    private static Taint untolerated(NodeInfo node, PodInfo pod, TaintsSettings settings) {
        return node.admission().untoleratedTaint(pod, taint -> "NoSchedule".equals(taint.effect())
                && (settings.keys().isEmpty() || settings.keys().contains(taint.key())));
    }

    private static String spelled(Taint taint) {
        return taint.key() + (taint.value() == null || taint.value().isEmpty() ? "" : "=" + taint.value()) + ":"
                + taint.effect();
    }
}
