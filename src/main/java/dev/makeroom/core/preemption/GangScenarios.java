package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.Deadline;
import dev.makeroom.core.room.Eligibility;
import dev.makeroom.core.room.NodeConstraints;
import dev.makeroom.core.room.NodeProblem;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.Objective;
import dev.makeroom.core.room.Protection;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.core.room.RoomMaker;
import dev.makeroom.core.room.TieBreak;
import dev.makeroom.core.room.WorkPrice;
import dev.makeroom.core.room.VictimSet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Preemption's objective on a node where victims could break a gang (docs/gangs.md).
 *
 * <p>The cost. Evicting members of a gang so that fewer than its minimum keep running stops every
 * running member: the objective's victim count and priority sum then count those members too (the
 * pods lost, not only the pods evicted); its PDB violations, highest priority and tie-breaks stay
 * those of the pods evicted. A gang that is broken has every member on the node that may be evicted
 * evicted with it: they stop anyway, and the room is theirs to give.
 *
 * <p>First the plain search. No set's gang cost is below its plain cost, so the plain optimum is a
 * lower bound; when that set breaks no gang ({@link #spares}) its gang cost is its plain cost, and it
 * is the answer (the usual case: the cheapest sets avoid gangs, and nodes pay one search). Else:
 *
 * <p>The scenarios. The exact search ({@link RoomMaker}) minimises a cost that adds up per victim, which
 * a gang's is not (nothing while it keeps its minimum, all its members once it does not). So each
 * gang that victims here could break is decided outside the search, in scenarios: either broken
 * (its members here made to go) or kept, with at most its slack (running members beyond its minimum)
 * of its members here allowed to go, one scenario for each choice of which. In a scenario no other
 * gang can break, and what the broken gangs add to the cost is fixed, so the search's best set is the
 * scenario's best under the gang cost; the node's answer is the best over all scenarios. Too many
 * scenarios (more than {@link #MOST_SCENARIOS}) are cut to two per gang, kept with no member going
 * or broken, and if those are still too many, to two in all, every gang kept or every gang broken;
 * the answer is then not proven optimal.
 */
final class GangScenarios {

    static final int MOST_SCENARIOS = 64;

    /**
     * A gang with members on the node that victims could break: {@code here}, its running members on
     * the node that preemption may evict; {@code running}, all its running members; {@code slack}, how
     * many may go while it keeps its minimum.
     */
    record AtRisk(Gang gang, List<PodInfo> here, List<PodInfo> running, int slack) {
    }

    private GangScenarios() {
    }

    /** The gangs that victims on {@code node} could break; empty when none could (then the plain search decides). */
    static List<AtRisk> atRisk(ClusterSnapshot snapshot, PodInfo pending, NodeInfo node, QueueRules rules) {
        Map<String, List<PodInfo>> here = new LinkedHashMap<>();
        Eligibility preempting = Eligibility.toPreempt(pending, snapshot, rules).on(node.name());
        for (PodInfo pod : node.pods()) {
            if (pod.gang() != null && !pod.terminating()) {
                Protection protection = preempting.protectionOf(pod);
                if (preempting.tierOf(pod, protection).reachable()) {
                    here.computeIfAbsent(pod.gang().key(), k -> new ArrayList<>()).add(pod);
                }
            }
        }
        List<AtRisk> atRisk = new ArrayList<>();
        here.forEach((key, members) -> {
            List<PodInfo> running = snapshot.runningMembersOf(key);
            Gang gang = snapshot.gangAsKnown(members.get(0).gang(), running); // the members here are among them
            int slack = gang.slack(running.size());
            if (members.size() > slack) { // else evicting every one of them here keeps it whole
                atRisk.add(new AtRisk(gang, members, running, slack));
            }
        });
        return atRisk;
    }

    /** Whether evicting {@code victims} leaves every gang at risk at or above its minimum. */
    static boolean spares(List<AtRisk> gangs, List<PodInfo> victims) {
        Set<String> evicted = new HashSet<>();
        victims.forEach(v -> evicted.add(v.uid()));
        for (AtRisk gang : gangs) {
            int out = 0;
            for (PodInfo member : gang.here()) {
                out += evicted.contains(member.uid()) ? 1 : 0;
            }
            if (gang.gang().brokenBy(gang.running().size(), out)) {
                return false;
            }
        }
        return true;
    }

    /** One way of treating the gangs at risk: the uids kept, the uids made to go, and the gangs broken. */
    private record Scenario(Set<String> kept, Map<String, String> goWith, List<AtRisk> broken) {

        static final Scenario NONE = new Scenario(Set.of(), Map.of(), List.of());

        /** This, with {@code gang} kept: its members here may not go, but those of {@code going}. */
        Scenario keeping(AtRisk gang, Set<String> going) {
            Set<String> keptNow = new HashSet<>(kept);
            gang.here().forEach(p -> {
                if (!going.contains(p.uid())) {
                    keptNow.add(p.uid());
                }
            });
            return new Scenario(keptNow, goWith, broken);
        }

        /** This, with {@code gang} broken: every member of it here goes. */
        Scenario breaking(AtRisk gang) {
            Map<String, String> goNow = new HashMap<>(goWith);
            gang.here().forEach(p -> goNow.put(p.uid(), "its gang " + gang.gang().name() + " is broken"));
            List<AtRisk> brokenNow = new ArrayList<>(broken);
            brokenNow.add(gang);
            return new Scenario(kept, goNow, brokenNow);
        }
    }

    /**
     * The node's verdict under the gang cost, over every scenario of {@code gangs}. With a {@code cutoff}
     * (may be null) a scenario's search looks only for sets that beat it: sound, since a scenario's
     * gang cost is never below the cost the search sees (it adds the lost members to the count).
     */
    static NodeVerdict verdict(ClusterSnapshot snapshot, PodInfo pending, String node, QueueRules rules,
                               Function<NodeInfo, NodeConstraints> interPod, List<AtRisk> gangs,
                               RoomMaker roomMaker, Deadline deadline, int parts, Objective cutoff,
                               WorkPrice.At work) {
        boolean capped = count(gangs, false) > MOST_SCENARIOS;
        List<Scenario> scenarios = !capped || count(gangs, true) <= MOST_SCENARIOS ? scenarios(gangs, capped)
                : List.of(allKept(gangs), allBroken(gangs));
        NodeVerdict best = null;
        NodeVerdict lastInfeasible = null;
        NodeVerdict dominated = null;
        boolean proven = !capped;
        for (Scenario scenario : scenarios) {
            Objective beat = best == null || best.lastResort() ? cutoff
                    : cutoff == null || best.victims().objective().isBetterThan(cutoff) ? best.victims().objective() : cutoff;
            NodeVerdict found = roomMaker.find(NodeProblem.pose(snapshot, pending, node, rules, interPod,
                    scenario.kept(), scenario.goWith()), deadline, parts, beat, work);
            if (found.dominated()) { // no set here beats the best so far
                dominated = dominated == null ? withGangCost(found, scenario.broken(), work) : dominated;
                continue;
            }
            if (!found.isFeasible()) {
                lastInfeasible = found;
                continue;
            }
            proven &= found.provenOptimal();
            NodeVerdict costed = withGangCost(found, scenario.broken(), work);
            if (best == null || better(costed, best)) {
                best = costed;
            }
        }
        if (best == null) { // every gang broken is the last scenario: the widest choice of victims
            return dominated != null ? dominated : lastInfeasible;
        }
        return new NodeVerdict(best.node(), best.victims(), null, null, proven, best.lastResort(), false,
                best.stats());
    }

    /** As the engine ranks nodes: a last-resort set only where nothing else works, then the cheaper. */
    private static boolean better(NodeVerdict a, NodeVerdict b) {
        if (a.lastResort() != b.lastResort()) {
            return !a.lastResort();
        }
        return a.victims().objective().isBetterThan(b.victims().objective());
    }

    /** How many scenarios: per gang, broken or each choice of its slack's members here ({@code capped}: broken or kept). */
    private static long count(List<AtRisk> gangs, boolean capped) {
        long total = 1;
        for (AtRisk gang : gangs) {
            total *= capped ? 2 : 1 + choose(gang.here().size(), gang.slack());
            if (total > MOST_SCENARIOS) {
                return total;
            }
        }
        return total;
    }

    private static long choose(int n, int k) {
        long c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
            if (c > MOST_SCENARIOS) {
                return c;
            }
        }
        return c;
    }

    /** Every combination, every gang kept first and every gang broken last. */
    private static List<Scenario> scenarios(List<AtRisk> gangs, boolean capped) {
        List<Scenario> all = List.of(Scenario.NONE);
        for (AtRisk gang : gangs) {
            List<Scenario> next = new ArrayList<>();
            List<Set<String>> mayGo = capped ? List.of(Set.of()) : subsets(gang.here(), gang.slack());
            for (Scenario before : all) {
                for (Set<String> going : mayGo) {
                    next.add(before.keeping(gang, going));
                }
            }
            for (Scenario before : all) {
                next.add(before.breaking(gang));
            }
            all = next;
        }
        return all;
    }

    /** Every gang kept, no member of any here going. */
    private static Scenario allKept(List<AtRisk> gangs) {
        Scenario all = Scenario.NONE;
        for (AtRisk gang : gangs) {
            all = all.keeping(gang, Set.of());
        }
        return all;
    }

    /** Every gang broken, every member of each here made to go. */
    private static Scenario allBroken(List<AtRisk> gangs) {
        Scenario all = Scenario.NONE;
        for (AtRisk gang : gangs) {
            all = all.breaking(gang);
        }
        return all;
    }

    /** The uid sets of exactly {@code size} of {@code pods} (fewer go as well: the search need not take them all). */
    private static List<Set<String>> subsets(List<PodInfo> pods, int size) {
        List<Set<String>> out = new ArrayList<>();
        collect(pods, size, 0, new ArrayList<>(), out);
        return out;
    }

    private static void collect(List<PodInfo> pods, int size, int from, List<String> chosen, List<Set<String>> out) {
        if (chosen.size() == size) {
            out.add(Set.copyOf(chosen));
            return;
        }
        for (int i = from; i < pods.size(); i++) {
            chosen.add(pods.get(i).uid());
            collect(pods, size, i + 1, chosen, out);
            chosen.remove(chosen.size() - 1);
        }
    }

    /**
     * {@code found}'s objective with the members of the {@code broken} gangs that are not victims counted as
     * lost: their count, priorities and (with the work-lost objective) their work.
     */
    private static NodeVerdict withGangCost(NodeVerdict found, List<AtRisk> broken, WorkPrice.At work) {
        Set<String> victims = new HashSet<>();
        found.victims().victims().forEach(p -> victims.add(p.uid()));
        long lost = 0;
        long lostPriorities = 0;
        long lostWork = 0;
        for (AtRisk gang : broken) {
            for (PodInfo member : gang.running()) {
                if (!victims.contains(member.uid())) {
                    lost++;
                    lostPriorities += member.priority();
                    lostWork += work.of(member);
                }
            }
        }
        Objective plain = found.victims().objective();
        long[] tieBreaks = new long[TieBreak.COUNT];
        for (TieBreak t : TieBreak.ALL) {
            tieBreaks[t.ordinal()] = plain.tieBreak(t);
        }
        Objective costed = new Objective(plain.pdbViolations(), plain.highestPriority(), plain.workLost() + lostWork,
                plain.victims() + lost, plain.prioritySum() + lostPriorities, tieBreaks, plain.workRank());
        return new NodeVerdict(found.node(), new VictimSet(found.victims().victims(), found.victims().pdbViolations(),
                costed), null, null, found.provenOptimal(), found.lastResort(), found.dominated(), found.stats());
    }
}
