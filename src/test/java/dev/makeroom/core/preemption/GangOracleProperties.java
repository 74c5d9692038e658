package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.Strategy;
import dev.makeroom.core.room.Objective;
import dev.makeroom.core.room.TieBreak;
import dev.makeroom.core.room.WorkRank;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import org.junit.jupiter.api.Assumptions;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Preemption with gangs against a brute-force oracle on one node: every set of the node's pods that may
 * be evicted, each costed as docs/gangs.md says (a gang left below its minimum costs every running
 * member; a broken gang's members here all go with it), the cheapest compared with makeroom's answer;
 * and an answer that breaks a gang only when no set as cheap keeps every gang.
 */
class GangOracleProperties {

    private static final int PENDING_PRIORITY = 5;

    /** A pod on the node: its priority (5 and above: not a victim), cpu, memory, and gang (-1: none). */
    record PodSpec(int priority, int cpu, int memory, int gang) {
    }

    /** A gang: its minimum (0: every member) and its running members elsewhere, with their priority. */
    record GangSpec(int minMember, int elsewhere, int priority) {
    }

    record Case(List<PodSpec> pods, List<GangSpec> gangs, int cpuSlack, int memorySlack, int cpuAsked, int memoryAsked) {
    }

    @Provide
    Gen<Case> cases() {
        Gen<PodSpec> pod = Gens.combine(Gens.integers().between(0, 6),
                Gens.integers().between(0, 3), Gens.integers().between(0, 3),
                Gens.integers().between(-1, 1)).as(PodSpec::new);
        Gen<GangSpec> gang = Gens.combine(Gens.integers().between(0, 4),
                Gens.integers().between(0, 3), Gens.integers().between(0, 4)).as(GangSpec::new);
        return Gens.combine(pod.list().ofMinSize(1).ofMaxSize(9), gang.list().ofSize(2),
                Gens.integers().between(0, 1), Gens.integers().between(0, 1),
                Gens.integers().between(1, 6), Gens.integers().between(0, 4)).as(Case::new);
    }

    private static Gang gang(Case c, int g) {
        int min = c.gangs().get(g).minMember();
        return new Gang("default", "coscheduling", "g" + g, min == 0 ? Gang.EVERY_MEMBER : min);
    }

    private static ClusterSnapshot snapshot(Case c) {
        int cpu = c.cpuSlack();
        int memory = c.memorySlack();
        for (PodSpec p : c.pods()) {
            cpu += p.cpu();
            memory += p.memory();
        }
        Scenario s = new Scenario().node("n", "cpu", cpu, "memory", memory).node("elsewhere", "cpu", 1000, "memory", 1000);
        for (int i = 0; i < c.pods().size(); i++) {
            PodSpec p = c.pods().get(i);
            s.on("n", Scenario.pod("p" + i, p.priority(), "cpu", p.cpu(), "memory", p.memory())
                    .gang(p.gang() < 0 ? null : gang(c, p.gang())));
        }
        for (int g = 0; g < c.gangs().size(); g++) {
            for (int k = 0; k < c.gangs().get(g).elsewhere(); k++) {
                s.on("elsewhere", Scenario.pod("g" + g + "-" + k, c.gangs().get(g).priority(), "cpu", 1).gang(gang(c, g)));
            }
        }
        return s.snapshot();
    }

    /** A set's gang cost, and whether it breaks a gang. */
    private record Costed(Objective objective, boolean breaks) {
    }

    /** The gang cost of evicting {@code victims}, or null when it leaves a broken gang's member here that may go. */
    private static Costed cost(ClusterSnapshot snapshot, List<PodInfo> victims, WorkRank rank) {
        Set<String> evicted = new HashSet<>();
        victims.forEach(v -> evicted.add(v.uid()));
        long lost = victims.size();
        long sum = 0;
        long work = 0;
        long highest = Long.MIN_VALUE;
        long[] ties = new long[TieBreak.COUNT];
        for (PodInfo v : victims) {
            sum += v.priority();
            work += Scenario.workLostAtNow(v);
            highest = Math.max(highest, v.priority());
            for (TieBreak t : TieBreak.ALL) {
                ties[t.ordinal()] += t.cost(v);
            }
        }
        boolean breaks = false;
        for (int g = 0; g < 2; g++) {
            List<PodInfo> running = snapshot.runningMembersOf(new Gang("default", "coscheduling", "g" + g, 1).key());
            long out = running.stream().filter(p -> evicted.contains(p.uid())).count();
            if (running.isEmpty() || !running.get(0).gang().brokenBy(running.size(), (int) out)) {
                continue;
            }
            breaks = true;
            for (PodInfo member : running) {
                if (evicted.contains(member.uid())) {
                    continue;
                }
                if ("n".equals(member.nodeName()) && member.priority() < PENDING_PRIORITY) {
                    return null; // a broken gang's members here go with it
                }
                lost++;
                sum += member.priority();
                work += Scenario.workLostAtNow(member);
            }
        }
        return new Costed(new Objective(0, highest, work, lost, sum, ties, rank), breaks);
    }

    private static boolean frees(Case c, List<Integer> subset) {
        int cpu = c.cpuSlack();
        int memory = c.memorySlack();
        for (int i : subset) {
            cpu += c.pods().get(i).cpu();
            memory += c.pods().get(i).memory();
        }
        return cpu >= c.cpuAsked() && memory >= c.memoryAsked();
    }

    @Property(tries = 400)
    void makeroom_answers_the_cheapest_set_under_the_gang_cost(@ForAll("cases") Case c) {
        assertCheapest(c, WorkRank.FIRST_TIE_BREAK, Scenario.minimal());
    }

    /** Under the work-lost objective a broken gang's running members lose their work too (docs/decisions.md). */
    @Property(tries = 400)
    void under_the_work_lost_objective_makeroom_answers_the_set_losing_least_with_the_gangs_it_breaks(
            @ForAll("cases") Case c) {
        PreemptionSettings settings = new PreemptionSettings(Strategy.MINIMAL, AnswerMode.ALL, PdbMode.PREFER,
                java.time.Duration.ofSeconds(5)).with(PreemptionObjective.WORK_LOST);
        assertCheapest(c, WorkRank.BEFORE_COUNT, new Decider(new PreemptionEngine(settings, System::nanoTime,
                java.time.InstantSource.fixed(Scenario.NOW))));
    }

    private static void assertCheapest(Case c, WorkRank rank, Decider engine) {
        ClusterSnapshot snapshot = snapshot(c);
        PodInfo pending = Scenario.pending(PENDING_PRIORITY, "cpu", c.cpuAsked(), "memory", c.memoryAsked());
        Assumptions.assumeTrue(!frees(c, List.of())); // a pod that fits as it is preempts nothing
        List<Integer> mayGo = new ArrayList<>();
        for (int i = 0; i < c.pods().size(); i++) {
            if (c.pods().get(i).priority() < PENDING_PRIORITY) {
                mayGo.add(i);
            }
        }
        Objective best = null;
        Objective bestKeepingEvery = null; // the cheapest set that breaks no gang
        for (int mask = 0; mask < 1 << mayGo.size(); mask++) {
            List<Integer> subset = new ArrayList<>();
            List<PodInfo> victims = new ArrayList<>();
            for (int b = 0; b < mayGo.size(); b++) {
                if ((mask & 1 << b) != 0) {
                    subset.add(mayGo.get(b));
                    victims.add(snapshot.pod("p" + mayGo.get(b)));
                }
            }
            Costed cost = frees(c, subset) ? cost(snapshot, victims, rank) : null;
            if (cost != null && (best == null || cost.objective().isBetterThan(best))) {
                best = cost.objective();
            }
            if (cost != null && !cost.breaks() && (bestKeepingEvery == null
                    || cost.objective().isBetterThan(bestKeepingEvery))) {
                bestKeepingEvery = cost.objective();
            }
        }

        PreemptionDecision decision = engine.decide(snapshot, pending, List.of("n"));
        if (best == null) {
            assertThat(decision.outcome()).isEqualTo(DecisionOutcome.NO_FEASIBLE_NODE);
            return;
        }
        assertThat(decision.outcome()).isEqualTo(DecisionOutcome.PREEMPT);
        NodeVerdict chosen = decision.chosen().get(0);
        Costed costed = cost(snapshot, chosen.victims().victims(), rank);
        assertThat(costed).as("the answer keeps the convention").isNotNull();
        Objective answered = costed.objective();
        assertThat(answered).as("the answer is costed as reported").isEqualTo(chosen.victims().objective());
        assertThat(answered.compareTo(best)).as("the cheapest set: " + best + ", answered " + answered).isZero();
        if (costed.breaks() && bestKeepingEvery != null) {
            assertThat(bestKeepingEvery.compareTo(answered)).as("a set as cheap that keeps every gang: "
                    + bestKeepingEvery).isPositive();
        }
        assertThat(chosen.provenOptimal()).isTrue();
    }
}
