package dev.makeroom.core.room;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.Decider;
import dev.makeroom.core.preemption.PackedDecision;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.preemption.Scenario;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import dev.makeroom.support.property.Tally;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exact search against an independent oracle on random nodes: up to 14 pods, 2 to 4
 * resources, mixed priorities, QoS, opt-outs, terminating pods and two budgets.
 */
class MinimalSearchProperties {

    private static final String[] DIMS = {"cpu", "memory", "example.com/gpu", "ephemeral-storage"};
    private static final int PENDING_PRIORITY = 5;
    /** Victims' ages are measured to a fixed point, so newer pods cost less (README, How makeroom decides: newer pods first). */
    private static final Instant REFERENCE = Instant.parse("2200-01-01T00:00:00Z");

    /** What may shield a running pod whatever its priority; most pods are plain. */
    enum Standing {
        PLAIN, TERMINATING, OPTED_OUT, MIRROR;

        /** One pod in about seven is special, each kind alike. */
        static Gen<Standing> arbitrary() {
            return Gens.frequencyOf(Gens.weighted(17, Gens.just(PLAIN)), Gens.weighted(1, Gens.just(TERMINATING)),
                    Gens.weighted(1, Gens.just(OPTED_OUT)), Gens.weighted(1, Gens.just(MIRROR)));
        }
    }

    /** A running pod; {@code budget} is the PDB covering it, -1 for none; {@code qos} indexes QosClass above BestEffort. */
    record PodSpec(int priority, int[] amounts, int qos, Standing standing, int budget, int startMinute,
                   boolean originator, boolean longGrace) {
    }

    record Case(int dims, List<PodSpec> pods, int[] slack, int podSlack, int[] pendingRequests, int[] allowed) {
    }

    @Provide
    Gen<Case> cases() {
        return cases(6, 6, 0);
    }

    /**
     * Pods of priority 0 and of at most one unit each, and a pending pod asking for at least
     * four: room takes many pods of one priority, as on nodes full of one Deployment's replicas.
     */
    @Provide
    Gen<Case> smallPods() {
        return cases(0, 1, 4);
    }

    private static Gen<Case> cases(int highestPriority, int largestAmount, int smallestRequest) {
        Gen<PodSpec> pod = Gens.combine(
                Gens.integers().between(0, highestPriority),
                Gens.integers().between(0, largestAmount).arrays().ofSize(DIMS.length),
                Gens.integers().between(1, 2),
                Standing.arbitrary(),
                Gens.integers().between(-1, 1),
                Gens.integers().between(0, 5),
                Gens.integers().between(0, 9).map(i -> i == 0),
                Gens.of(true, false)).as(PodSpec::new);
        // replicas: a template repeated up to three times, each copy started a minute later
        Gen<List<PodSpec>> pods = Gens.combine(pod.list().ofMaxSize(8),
                Gens.integers().between(1, 3).arrays().ofSize(8)).as((templates, copies) -> {
                    List<PodSpec> all = new ArrayList<>();
                    for (int t = 0; t < templates.size(); t++) {
                        PodSpec p = templates.get(t);
                        for (int r = 0; r < copies[t] && all.size() < 14; r++) {
                            all.add(new PodSpec(p.priority(), p.amounts(), p.qos(), p.standing(), p.budget(),
                                    p.startMinute() + r, p.originator(), p.longGrace()));
                        }
                    }
                    return all;
                });
        return Gens.combine(
                Gens.integers().between(2, DIMS.length),
                pods,
                Gens.integers().between(0, 2).arrays().ofSize(DIMS.length),
                Gens.integers().between(0, 2),
                Gens.integers().between(smallestRequest, 9).arrays().ofSize(DIMS.length),
                Gens.integers().between(0, 2).arrays().ofSize(2)).as(Case::new);
    }

    private static ClusterSnapshot snapshot(Case c) {
        return snapshot(List.of(c));
    }

    /** One node per case, named n (one case) or n0, n1, ...; the budgets of the first case. */
    private static ClusterSnapshot snapshot(List<Case> cases) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (int n = 0; n < cases.size(); n++) {
            Case c = cases.get(n);
            String node = cases.size() == 1 ? "n" : "n" + n;
            Map<String, Long> allocatable = new HashMap<>();
            for (int d = 0; d < c.dims(); d++) {
                long used = 0;
                for (PodSpec p : c.pods()) {
                    used += p.amounts()[d];
                }
                allocatable.put(DIMS[d], used + c.slack()[d]);
            }
            allocatable.put(Resources.PODS, (long) c.pods().size() + c.podSlack());
            b.node(node, Map.of(), Resources.of(allocatable));
            for (int i = 0; i < c.pods().size(); i++) {
                b.pod(pod(c, i, node));
            }
        }
        for (int k = 0; k < 2; k++) {
            b.budget(new DisruptionBudget("default", "pdb-" + k, LabelSelector.matching(Map.of("pdb", "" + k)),
                    cases.get(0).allowed()[k], Set.of()));
        }
        return b.build();
    }

    private static PodInfo pod(Case c, int i, String node) {
        PodSpec p = c.pods().get(i);
        Map<String, Long> requests = new HashMap<>();
        for (int d = 0; d < c.dims(); d++) {
            requests.put(DIMS[d], (long) p.amounts()[d]);
        }
        Resources r = Resources.of(requests);
        return PodInfo.builder(node + "-p" + i).name("p" + i).nodeName(node).priority(p.priority()).requests(r)
                .qos(r.isEmpty() ? QosClass.BEST_EFFORT : QosClass.values()[p.qos()])
                .terminating(p.standing() == Standing.TERMINATING).optedOut(p.standing() == Standing.OPTED_OUT)
                .mirror(p.standing() == Standing.MIRROR)
                .labels(p.budget() < 0 ? Map.of() : Map.of("pdb", "" + p.budget()))
                .originator(p.originator()).terminationGracePeriodSeconds(p.longGrace() ? 30 : 0)
                .startTime(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(60L * p.startMinute()))
                .resourceVersion(10 + i).build();
    }

    private static PodInfo pending(Case c) {
        Map<String, Long> requests = new HashMap<>();
        for (int d = 0; d < c.dims(); d++) {
            requests.put(DIMS[d], (long) c.pendingRequests()[d]);
        }
        return PodInfo.builder("pending").priority(PENDING_PRIORITY).requests(Resources.of(requests)).build();
    }

    // ---- the oracle: written from the README's "How makeroom decides", sharing nothing with the engine ----

    private static boolean eligible(PodInfo p) {
        return p.priority() < PENDING_PRIORITY && !p.terminating() && !p.optedOut() && !p.mirror();
    }

    private static boolean fitsWithout(ClusterSnapshot s, PodInfo pending, Set<String> victims) {
        return fitsWithout(s, "n", pending, victims);
    }

    private static boolean fitsWithout(ClusterSnapshot s, String nodeName, PodInfo pending, Set<String> victims) {
        var node = s.node(nodeName);
        long podsLeft = node.pods().stream().filter(p -> !victims.contains(p.uid())).count();
        if (podsLeft + 1 > node.allocatable().get(Resources.PODS)) {
            return false;
        }
        for (int d = 0; d < pending.requests().size(); d++) {
            String dim = pending.requests().name(d);
            long used = node.pods().stream().filter(p -> !victims.contains(p.uid()))
                    .mapToLong(p -> p.requests().get(dim)).sum();
            if (pending.requests().value(d) > 0 && used + pending.requests().value(d) > node.allocatable().get(dim)) {
                return false;
            }
        }
        return true;
    }

    private static Objective oracleObjective(ClusterSnapshot s, List<PodInfo> pool, Set<String> victims) {
        long[] spent = new long[2];
        long highest = Long.MIN_VALUE, count = 0, sum = 0, work = 0, qos = 0, orig = 0, grace = 0, age = 0;
        for (PodInfo v : pool) {
            if (!victims.contains(v.uid())) {
                continue;
            }
            String label = v.labels().get("pdb");
            if (label != null) {
                spent[Integer.parseInt(label)]++;
            }
            highest = Math.max(highest, v.priority());
            count++;
            sum += v.priority();
            work += Scenario.workLostAtNow(v);
            qos += v.qos().ordinal();
            orig += v.originator() ? 1 : 0;
            grace += v.terminationGracePeriodSeconds();
            age += java.time.Duration.between(v.startTime(), REFERENCE).toSeconds();
        }
        long violations = 0;
        for (int k = 0; k < 2; k++) {
            violations += Math.max(0, spent[k] - s.budgets().get(k).disruptionsAllowed());
        }
        return new Objective(violations, highest, work, count, sum, new long[] {qos, orig, grace, age}, // TieBreak order
                WorkRank.FIRST_TIE_BREAK);
    }


    private static Objective bruteForceOptimum(ClusterSnapshot s, PodInfo pending) {
        return bruteForceOptimum(s, "n", pending);
    }

    private static Objective bruteForceOptimum(ClusterSnapshot s, String node, PodInfo pending) {
        List<PodInfo> pool = s.node(node).pods().stream().filter(MinimalSearchProperties::eligible).toList();
        Objective best = null;
        for (int mask = 1; mask < (1 << pool.size()); mask++) {
            Set<String> victims = new java.util.HashSet<>();
            for (int i = 0; i < pool.size(); i++) {
                if ((mask & (1 << i)) != 0) {
                    victims.add(pool.get(i).uid());
                }
            }
            if (fitsWithout(s, node, pending, victims)) {
                Objective o = oracleObjective(s, pool, victims);
                if (best == null || o.compareTo(best) < 0) {
                    best = o;
                }
            }
        }
        return best;
    }

    private static Set<String> uids(NodeVerdict v) {
        Set<String> uids = new java.util.HashSet<>();
        v.victims().victims().forEach(p -> uids.add(p.uid()));
        return uids;
    }

    @Property(tries = 400)
    void the_answer_is_valid_and_equals_the_brute_force_optimum(@ForAll("cases") Case c) {
        ClusterSnapshot s = snapshot(c);
        PodInfo pending = pending(c);
        NodeVerdict verdict = Scenario.minimal().decide(s, pending, List.of("n")).verdicts().get(0);
        List<PodInfo> pool = s.node("n").pods().stream().filter(MinimalSearchProperties::eligible).toList();

        if (fitsWithout(s, pending, Set.of())) {
            Tally.collect("fits already");
            assertThat(verdict.reason()).isEqualTo(InfeasibleReason.FITS_WITHOUT_PREEMPTION);
            return;
        }
        Objective optimum = bruteForceOptimum(s, pending);
        if (optimum == null) {
            Tally.collect("infeasible");
            assertThat(verdict.isFeasible()).isFalse();
            return;
        }
        Tally.collect(optimum.victims() > 1 ? "preempt several" : "preempt one");
        Tally.coverage(coverage -> coverage.check("preempt several").percentage(p -> p > 10));
        assertThat(verdict.isFeasible()).isTrue();
        assertThat(verdict.provenOptimal()).isTrue();
        assertThat(verdict.victims().victims()).allMatch(MinimalSearchProperties::eligible);
        assertThat(fitsWithout(s, pending, uids(verdict))).isTrue();
        assertThat(oracleObjective(s, pool, uids(verdict))).isEqualTo(optimum);
        assertThat(verdict.victims().objective()).isEqualTo(optimum);
    }

    @Property(tries = 150)
    void answering_only_the_best_node_finds_the_best_of_all_nodes(@ForAll("cases") Case a, @ForAll("cases") Case b,
                                                                  @ForAll("cases") Case c) {
        assertBestOfAllNodes(List.of(a, b, c));
    }

    /**
     * Nodes running the same pods, as replicas spread over a cluster do: the later ones tie the first
     * at best, and are settled by QuickDomination's bound without a search where it can tell.
     */
    @Property(tries = 150)
    void nodes_alike_are_settled_against_the_first_and_none_beats_it(@ForAll("cases") Case a, @ForAll("cases") Case b) {
        assertBestOfAllNodes(List.of(a, b, a));
    }

    /**
     * As above where making room takes many small pods: the bound's fewest count then sorts the
     * amounts rather than keeping the few largest ({@link CandidateScan}).
     */
    @Property(tries = 150)
    void nodes_of_many_small_pods_are_settled_against_the_best_so_far(@ForAll("smallPods") Case a,
                                                                     @ForAll("smallPods") Case b,
                                                                     @ForAll("smallPods") Case c) {
        assertBestOfAllNodes(List.of(a, b, c));
    }

    /** The decision log keeps decisions packed; what it shows is the decision as made, to every field. */
    @Property(tries = 150)
    void a_packed_decision_unpacks_to_the_decision_made(@ForAll("cases") Case a, @ForAll("cases") Case b,
                                                        @ForAll("cases") Case c, @ForAll boolean all) {
        PreemptionDecision decision = Scenario.engine(Strategy.MINIMAL, PdbMode.PREFER,
                all ? AnswerMode.ALL : AnswerMode.BEST).decide(snapshot(List.of(a, b, c)), pending(a),
                List.of("n2", "n0", "n1"));

        PreemptionDecision unpacked = PackedDecision.of(decision).unpack();

        assertThat(unpacked).isEqualTo(decision);
        assertThat(unpacked.verdicts()).extracting(NodeVerdict::detail)
                .containsExactlyElementsOf(decision.verdicts().stream().map(NodeVerdict::detail).toList());
    }

    private static void assertBestOfAllNodes(List<Case> cases) {
        Case a = cases.get(0);
        ClusterSnapshot s = snapshot(cases);
        PodInfo pending = pending(a);
        List<String> nodes = List.of("n2", "n0", "n1");
        PreemptionDecision best = Scenario.engine(Strategy.MINIMAL, PdbMode.PREFER, AnswerMode.BEST)
                .decide(s, pending, nodes);

        Objective optimum = null;
        String optimalNode = null;
        for (String node : List.of("n0", "n1", "n2")) {
            if (fitsWithout(s, node, pending, Set.of())) {
                continue;
            }
            Objective o = bruteForceOptimum(s, node, pending);
            if (o != null && (optimum == null || o.compareTo(optimum) < 0)) {
                optimum = o;
                optimalNode = node;
            }
        }
        if (optimum == null) {
            assertThat(best.chosen()).isEmpty();
            return;
        }
        assertThat(best.chosen()).hasSize(1);
        assertThat(best.chosen().get(0).node()).isEqualTo(optimalNode);
        assertThat(best.chosen().get(0).dominated()).isFalse();
        assertThat(best.chosen().get(0).victims().objective()).isEqualTo(optimum);
        assertThat(best.verdicts()).extracting(NodeVerdict::node).containsExactlyElementsOf(nodes);
        for (NodeVerdict verdict : best.verdicts()) {
            if (verdict.dominated()) { // settled by a search or by DominatedSingle's scan: no set there beats the answer
                Tally.collect(verdict.stats().statesExplored() == 0 ? "dominated without a search" : "dominated");
                assertThat(bruteForceOptimum(s, verdict.node(), pending)).isGreaterThanOrEqualTo(optimum);
                assertThat(fitsWithout(s, verdict.node(), pending, uids(verdict))).isTrue();
            }
        }
    }

    @Property(tries = 300)
    void the_answer_is_never_worse_than_the_reprieve(@ForAll("cases") Case c) {
        assertValidAndNoWorseThanReprieve(c, Scenario.minimal());
    }

    private static void assertValidAndNoWorseThanReprieve(Case c, Decider engine) {
        ClusterSnapshot s = snapshot(c);
        PodInfo pending = pending(c);
        NodeVerdict verdict = engine.decide(s, pending, List.of("n")).verdicts().get(0);
        NodeVerdict reprieve = Scenario.kubeDefault().decide(s, pending, List.of("n")).verdicts().get(0);
        List<PodInfo> pool = s.node("n").pods().stream().filter(MinimalSearchProperties::eligible).toList();

        assertThat(verdict.isFeasible()).isEqualTo(reprieve.isFeasible());
        if (reprieve.isFeasible()) {
            assertThat(fitsWithout(s, pending, uids(reprieve))).isTrue();
            assertThat(fitsWithout(s, pending, uids(verdict))).isTrue();
            assertThat(oracleObjective(s, pool, uids(verdict)))
                    .isLessThanOrEqualTo(oracleObjective(s, pool, uids(reprieve)));
        }
    }

    @Property(tries = 200)
    void victims_are_listed_highest_priority_first(@ForAll("cases") Case c) {
        NodeVerdict verdict = Scenario.minimal().decide(snapshot(c), pending(c), List.of("n")).verdicts().get(0);
        if (verdict.isFeasible()) {
            List<Integer> priorities = new ArrayList<>(verdict.victims().victims().stream().map(PodInfo::priority).toList());
            assertThat(priorities).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        }
    }

    @Property(tries = 50)
    void a_spent_time_budget_still_answers_a_valid_set_no_worse_than_the_reprieve(@ForAll("cases") Case c) {
        // a clock that jumps a second per reading: the deadline passes at the first check
        long[] now = {0};
        Decider hurried = new Decider(new PreemptionEngine(new PreemptionSettings(Strategy.MINIMAL, AnswerMode.ALL,
                PdbMode.PREFER, java.time.Duration.ZERO), () -> now[0] += 1_000_000_000L,
                java.time.InstantSource.fixed(Scenario.NOW)));
        assertValidAndNoWorseThanReprieve(c, hurried);
    }
}
