package dev.makeroom.core.rounds.affinity;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.Conflicts;
import dev.makeroom.core.placement.Filter;
import dev.makeroom.core.placement.Placement;
import dev.makeroom.core.placement.PreferenceScores;
import dev.makeroom.core.placement.Verdict;
import dev.makeroom.core.rounds.PolicySection;
import dev.makeroom.core.rounds.Relocation;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.Round;
import dev.makeroom.core.rounds.RoundPolicy;

import java.util.List;
import java.util.Set;

/**
 * The affinity policy: a pod whose node its node selector or required node affinity no longer allows,
 * or whose required anti-affinity, at any topology, its domain now breaks (found for the round by
 * {@link WideAntiAffinity}, confirmed by the placement engine), moves to the allowed node with the lowest
 * use that takes it (and, with rebalancing on, stays at or below the {@code high} thresholds with it).
 * With a {@code preferredMinGain}, so does a pod with preferences of its own that the scheduler's
 * preference score ({@link PreferenceScores}: preferred node and pod affinity and anti-affinity, and other
 * pods' preferences for it) puts at least that much higher on another node that takes it.
 */
public final class AffinityPolicy implements RoundPolicy<AffinitySettings> {

    /**
     * Its name in moves and skips; it moves a pod off a node its node selector or required node affinity no longer
     * allows, or where it breaks a required anti-affinity.
     */
    public static final ReschedulePolicy KIND = new ReschedulePolicy("AFFINITY");

    @Override
    public ReschedulePolicy kind() {
        return KIND;
    }

    @Override
    public String section() {
        return "affinity";
    }

    @Override
    public Set<String> keys() {
        return Set.of("enabled", "minGain");
    }

    @Override
    public Class<AffinitySettings> settingsType() {
        return AffinitySettings.class;
    }

    /** Off unless turned on; {@code minGain} 0 (never move for preferences) unless the aggressiveness gives one. */
    @Override
    public AffinitySettings read(PolicySection section) {
        Object minGain = section.value("minGain", section.level() == null ? 0 : section.level().minGain());
        if (!(minGain instanceof Integer n) || n < 0) {
            throw section.invalid("minGain", "must be a whole number, 0 or more"
                    + " (preferred node and pod affinity weights add up per node, as the scheduler scores them;"
                    + " 0: never move for them)");
        }
        return new AffinitySettings(section.bool("enabled", false), n);
    }

    @Override
    public void plan(Round round) {
        new Pass(round).run();
    }

    /** One round's pass, with what it learns on the way. */
    private static final class Pass {
        private final Round round;
        private final Set<String> wideSuspects; // pods whose anti-affinity wider than a node may be broken
        private final int minGain; // the preference score another node must add before a pod moves for it
        private PreferenceScores scores; // on the planned state as it is; null once a move changed it

        Pass(Round round) {
            this.round = round;
            this.wideSuspects = WideAntiAffinity.suspects(round.placement(), round.snapshot().podsWithAntiAffinity());
            this.minGain = round.settings(AffinitySettings.class).preferredMinGain();
        }

        void run() {
            for (NodeInfo node : round.nodes()) {
                for (PodInfo pod : List.copyOf(round.podsOn(node))) {
                    if (round.movedAlready(pod)) {
                        continue;
                    }
                    Misplacement here = misplaced(pod, node);
                    if (here instanceof Misplacement.Broken broken) {
                        if (round.movable(pod, node, KIND)) {
                            round.relocate(pod, node, KIND, broken.text(), round.nodes(),
                                    target -> round.landingAllowed(target, pod));
                        }
                    } else if (minGain > 0 && PreferenceScores.hasPreferences(pod)) {
                        preferredElsewhere(pod, node);
                    }
                }
            }
        }

        /**
         * Moves the pod where the scheduler's preference score is at least {@code minGain} higher than
         * where it runs, if such a node takes it. The scores are counted again once a move changed the state.
         */
        private void preferredElsewhere(PodInfo pod, NodeInfo node) {
            if (scores == null) {
                scores = PreferenceScores.of(round.placement());
            }
            PreferenceScores.PodScores now = scores.forPod(pod);
            long here = now.on(node);
            long wanted = here + minGain;
            if (round.nodes().stream().noneMatch(n -> n != node && now.on(n) >= wanted)
                    || !round.movable(pod, node, KIND)) {
                return;
            }
            Relocation landed = round.relocate(pod, node, KIND, "its affinity preferences score "
                    + node.name() + " " + here + ", another node at least " + minGain + " more",
                    round.nodes(), target -> now.on(target) >= wanted && round.landingAllowed(target, pod));
            if (landed instanceof Relocation.Moved) {
                scores = null;
            }
        }

        /** Whether the pod's required constraints still let it stay on its node, or which one its node breaks. */
        private Misplacement misplaced(PodInfo pod, NodeInfo node) {
            if (!pod.constraints().allowsNode(node)) {
                return new Misplacement.Broken(Misplacement.Rule.NODE_AFFINITY,
                        "its node selector or required node affinity no longer allows " + node.name());
            }
            for (PodInfo other : round.podsOn(node)) {
                if (!other.uid().equals(pod.uid()) && Conflicts.keptApartOnNode(pod, other)) {
                    return new Misplacement.Broken(Misplacement.Rule.ANTI_AFFINITY_ON_NODE,
                            "required anti-affinity with " + other.ref() + " on the same node");
                }
            }
            if (wideSuspects.contains(pod.uid())) { // confirmed by the engine on the state the moves so far left
                Placement here = round.placementOf(pod).on(node);
                if (here.filter() == Filter.INTER_POD_AFFINITY && here.verdict() == Verdict.UNSCHEDULABLE) {
                    return new Misplacement.Broken(Misplacement.Rule.ANTI_AFFINITY,
                            "required anti-affinity is broken where it runs: " + here.reason());
                }
            }
            return Misplacement.FITS;
        }
    }
}
