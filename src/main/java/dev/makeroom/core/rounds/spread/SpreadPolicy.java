package dev.makeroom.core.rounds.spread;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.placement.SpreadDomains;
import dev.makeroom.core.placement.Topology;
import dev.makeroom.core.rounds.PolicySection;
import dev.makeroom.core.rounds.Relocation;
import dev.makeroom.core.rounds.ReschedulePolicy;
import dev.makeroom.core.rounds.Round;
import dev.makeroom.core.rounds.RoundPolicy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The spread policy (the descheduler's RemovePodsViolatingTopologySpreadConstraint): pods whose
 * DoNotSchedule topology spread constraint is broken now — a domain holds more matching pods than the
 * emptiest one plus {@code maxSkew}, as after a scale-up into one zone or a zone's nodes coming back.
 *
 * <p><b>Design.</b> Pods sharing a constraint (same namespace, constraint and placement rules: the
 * replicas of one workload) form a group, counted once per domain as PodTopologySpread counts
 * ({@link SpreadDomains}). While the group's skew is over {@code maxSkew}, one of its pods in the
 * fullest domain (lowest priority, then newest, first) moves to a node the placement engine takes it on
 * (its own spread included) in a domain that then holds fewer than the fullest will: each move takes
 * one pod off the excess, so no fewer moves could do, and no move makes another domain the new
 * fullest. The counts are kept as moves are planned, not counted again.
 *
 * <p>With {@code scheduleAnyway}, constraints that only score are balanced the same way: the scheduler
 * never refuses a node for them, so nothing else keeps such a workload from piling up.
 */
public final class SpreadPolicy implements RoundPolicy<SpreadSettings> {

    /**
     * Its name in moves and skips; it moves a pod out of a topology domain that holds more of its spread group than
     * its maxSkew allows.
     */
    public static final ReschedulePolicy KIND = new ReschedulePolicy("SPREAD");

    /** Pods of one workload that share a constraint; {@code soft}: a ScheduleAnyway one. */
    private record GroupKey(String namespace, SpreadConstraint constraint, Object placementRules, boolean soft) {
    }

    @Override
    public ReschedulePolicy kind() {
        return KIND;
    }

    @Override
    public String section() {
        return "spread";
    }

    @Override
    public Set<String> keys() {
        return Set.of("enabled", "scheduleAnyway");
    }

    @Override
    public Class<SpreadSettings> settingsType() {
        return SpreadSettings.class;
    }

    /** Off unless turned on; DoNotSchedule constraints only unless {@code scheduleAnyway}. */
    @Override
    public SpreadSettings read(PolicySection section) {
        return new SpreadSettings(section.bool("enabled", false), section.bool("scheduleAnyway", false));
    }

    @Override
    public void plan(Round round) {
        boolean soft = round.settings(SpreadSettings.class).scheduleAnyway();
        Map<GroupKey, List<PodInfo>> groups = new LinkedHashMap<>();
        Map<String, NodeInfo> homes = new HashMap<>();
        for (NodeInfo node : round.nodes()) {
            for (PodInfo pod : round.podsOn(node)) {
                Object rules = List.of(pod.constraints(), pod.tolerations());
                for (SpreadConstraint c : pod.constraints().spread()) {
                    groups.computeIfAbsent(new GroupKey(pod.namespace(), c, rules, false), k -> new ArrayList<>()).add(pod);
                }
                for (SpreadConstraint c : soft ? pod.constraints().softSpread() : List.<SpreadConstraint>of()) {
                    groups.computeIfAbsent(new GroupKey(pod.namespace(), c, rules, true), k -> new ArrayList<>()).add(pod);
                }
                homes.put(pod.uid(), node);
            }
        }
        groups.forEach((key, members) -> balance(round, key.constraint(), key.soft(), members, homes));
    }

    private static void balance(Round round, SpreadConstraint c, boolean soft, List<PodInfo> members,
                                Map<String, NodeInfo> homes) {
        PodInfo owner = members.get(0);
        // a ScheduleAnyway constraint counts the nodes that carry the keys of the pod's ScheduleAnyway constraints
        List<SpreadConstraint> all = soft ? owner.constraints().softSpread() : owner.constraints().spread();
        Map<String, Long> counts = SpreadDomains.count(c, owner, round.placement(), all, null);
        Set<String> stuck = new HashSet<>(); // tried and not moved: said once in the skips, not again per move
        while (SpreadDomains.skew(c, counts) > c.maxSkew() && !round.full()) {
            String fullest = fullest(counts);
            long most = counts.get(fullest);
            long least = counts.values().stream().mapToLong(Long::longValue).min().orElse(0);
            String why = "topology spread" + (soft ? " (ScheduleAnyway)" : "") + " on " + c.topologyKey()
                    + " is broken: " + fullest + " holds " + most
                    + " matching pods, the emptiest domain " + least + " (maxSkew " + c.maxSkew() + ")";
            List<PodInfo> inFullest = new ArrayList<>();
            for (PodInfo pod : members) {
                NodeInfo home = homes.get(pod.uid());
                if (!round.movedAlready(pod) && !stuck.contains(pod.uid()) && c.counts(owner, pod)
                        && fullest.equals(Topology.domainOf(home, c.topologyKey()))) {
                    inFullest.add(pod);
                }
            }
            inFullest.sort(Round.SHED_FIRST);
            NodeInfo landed = null;
            for (PodInfo pod : inFullest) {
                NodeInfo home = homes.get(pod.uid());
                if (round.movable(pod, home, KIND)) {
                    Relocation relocation = round.relocate(pod, home, KIND, why, round.nodes(), target -> {
                        String domain = Topology.domainOf(target, c.topologyKey());
                        return domain != null && counts.containsKey(domain) && counts.get(domain) + 1 < most
                                && round.landingAllowed(target, pod);
                    });
                    landed = relocation instanceof Relocation.Moved moved ? moved.to() : null;
                }
                if (landed != null) {
                    break;
                }
                stuck.add(pod.uid());
            }
            if (landed == null) {
                return; // no pod of the fullest domain can go anywhere that helps: the skips say why
            }
            SpreadDomains.moved(counts, fullest, Topology.domainOf(landed, c.topologyKey()));
        }
    }

    /** The domain holding the most (the first by name among equals). */
    private static String fullest(Map<String, Long> counts) {
        String fullest = null;
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            if (fullest == null || e.getValue() > counts.get(fullest)
                    || (e.getValue().equals(counts.get(fullest)) && e.getKey().compareTo(fullest) < 0)) {
                fullest = e.getKey();
            }
        }
        return fullest;
    }
}
