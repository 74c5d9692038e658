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
import dev.makeroom.core.preemption.PreemptionObjective;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Gen;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.IntRange;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import dev.makeroom.support.property.Tally;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The work-lost objective against an independent oracle: GPU nodes (16 cpu, 8 GPUs) of up to 12 pods
 * started between ten minutes and three days before the decision, about 40% with a recent
 * checkpoint, two priorities and two budgets; every set tried. The oracle prices work as
 * docs/configuration.md says (cpu 1 a core, GPUs 50 a unit, seconds since the later of start and
 * checkpoint, at most a day), in its own code.
 */
class WorkLostProperties {

    private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");
    private static final int PENDING_PRIORITY = 10;
    private static final long DAY = 86_400;

    /** {@code startMinutesAgo} from 10 minutes to 3 days; {@code savedMinutesAgo} -1 for none. */
    record Pod(int priority, int cpu, int gpus, int startMinutesAgo, int savedMinutesAgo, int budget, boolean burstable) {
    }

    record Case(List<Pod> pods, int pendingCpu, int pendingGpus, int[] allowed) {
    }

    @Provide
    Gen<Case> gpuNodes() {
        Gen<Pod> pod = Gens.combine(
                Gens.integers().between(0, 1),
                Gens.integers().between(1, 5),
                Gens.integers().between(0, 3),
                Gens.integers().between(10, 3 * 24 * 60),
                Gens.integers().between(0, 9),
                Gens.integers().between(-1, 1),
                Gens.of(true, false)).as((priority, cpu, gpus, started, saved, budget, burstable) ->
                        new Pod(priority, cpu, gpus, started, saved < 4 ? Math.min(started, saved * 7) : -1, budget,
                                burstable));
        // replicas: a template repeated, each copy started a little later, as a Job's workers are
        Gen<List<Pod>> pods = Gens.combine(pod.list().ofMinSize(1).ofMaxSize(7),
                Gens.integers().between(1, 3).arrays().ofSize(7)).as((templates, copies) -> {
                    List<Pod> all = new ArrayList<>();
                    for (int t = 0; t < templates.size(); t++) {
                        Pod p = templates.get(t);
                        for (int r = 0; r < copies[t] && all.size() < 12; r++) {
                            all.add(new Pod(p.priority(), p.cpu(), p.gpus(), Math.max(10, p.startMinutesAgo() - 3 * r),
                                    p.savedMinutesAgo(), p.budget(), p.burstable()));
                        }
                    }
                    return all;
                });
        return Gens.combine(pods, Gens.integers().between(2, 10), Gens.integers().between(1, 6),
                Gens.integers().between(0, 2).arrays().ofSize(2)).as(Case::new);
    }

    @Property(tries = 400)
    void the_answer_loses_the_least_work_any_set_loses(@ForAll("gpuNodes") Case c) {
        ClusterSnapshot s = snapshot(List.of(c));
        PodInfo pending = pending(c);
        NodeVerdict verdict = workLost(AnswerMode.BEST).decide(s, pending, List.of("n")).verdicts().get(0);

        if (fitsWithout(s, "n", pending, Set.of())) {
            Tally.collect("fits already");
            assertThat(verdict.reason()).isEqualTo(InfeasibleReason.FITS_WITHOUT_PREEMPTION);
            return;
        }
        Objective optimum = bruteForce(s, "n", pending);
        if (optimum == null) {
            Tally.collect("infeasible");
            assertThat(verdict.isFeasible()).isFalse();
            return;
        }
        NodeVerdict fewest = decider(Strategy.MINIMAL, PreemptionObjective.KUBERNETES, AnswerMode.ALL)
                .decide(s, pending, List.of("n")).verdicts().get(0);
        long fewestWork = oracle(s, "n", uids(fewest)).workLost();
        Tally.collect(fewestWork > optimum.workLost() ? "the fewest victims lose more work" : "the fewest lose the least");
        Tally.coverage(cover -> cover.check("the fewest victims lose more work").percentage(p -> p > 1));
        assertThat(verdict.isFeasible()).isTrue();
        assertThat(verdict.provenOptimal()).isTrue();
        assertThat(fitsWithout(s, "n", pending, uids(verdict))).isTrue();
        assertThat(oracle(s, "n", uids(verdict))).isEqualTo(optimum);
        assertThat(verdict.victims().objective()).isEqualTo(optimum);
        assertThat(optimum.workLost()).isLessThanOrEqualTo(fewestWork);
    }

    /** Nodes settled against the best so far (QuickDomination's bound, the search's cutoff) still give the best of all. */
    @Property(tries = 200)
    void answering_only_the_best_node_finds_the_least_work_of_all_nodes(@ForAll("gpuNodes") Case a,
                                                                        @ForAll("gpuNodes") Case b,
                                                                        @ForAll boolean alike) {
        List<Case> cases = List.of(a, b, alike ? a : b);
        ClusterSnapshot s = snapshot(cases);
        PodInfo pending = pending(a);
        PreemptionDecision best = workLost(AnswerMode.BEST).decide(s, pending, List.of("n2", "n0", "n1"));

        Objective optimum = null;
        for (String node : List.of("n0", "n1", "n2")) {
            Objective o = fitsWithout(s, node, pending, Set.of()) ? null : bruteForce(s, node, pending);
            if (o != null && (optimum == null || o.compareTo(optimum) < 0)) {
                optimum = o;
            }
        }
        if (optimum == null) {
            assertThat(best.chosen()).isEmpty();
            return;
        }
        NodeVerdict chosen = best.chosen().get(0);
        assertThat(chosen.victims().objective()).isEqualTo(optimum);
        assertThat(oracle(s, chosen.node(), uids(chosen))).isEqualTo(optimum);
        for (NodeVerdict verdict : best.verdicts()) {
            if (verdict.dominated()) {
                Tally.collect(verdict.stats().statesExplored() == 0 ? "dominated without a search" : "dominated");
                assertThat(bruteForce(s, verdict.node(), pending)).isGreaterThanOrEqualTo(optimum);
            }
        }
        assertThat(PackedDecision.of(best).unpack()).as("the decision log keeps work lost").isEqualTo(best);
    }

    /**
     * The default objective keeps its order (fewest violations, lowest highest priority, fewest victims, least
     * priority sum) and then loses the least work: its answer over three nodes is the brute-force optimum under
     * that order, and where it ties the kube-scheduler's own pick on everything before the work (the pick made
     * as the scheduler makes it: its victims on each node by reprieve, the node by its order and, last, the
     * latest start of the highest-priority victims), it never loses more work than that pick.
     */
    @Property(tries = 300)
    void the_default_objective_never_loses_more_work_than_the_schedulers_pick_on_ties(@ForAll("gpuNodes") Case a,
                                                                                      @ForAll("gpuNodes") Case b,
                                                                                      @ForAll("gpuNodes") Case c) {
        ClusterSnapshot s = snapshot(List.of(a, b, c));
        PodInfo pending = pending(a);
        List<String> nodes = List.of("n0", "n1", "n2");
        PreemptionDecision decision = decider(Strategy.MINIMAL, PreemptionObjective.KUBERNETES, AnswerMode.BEST)
                .decide(s, pending, nodes);
        Objective optimum = null;
        for (String node : nodes) {
            Objective o = fitsWithout(s, node, pending, Set.of()) ? null : bruteForce(s, node, pending, WorkRank.FIRST_TIE_BREAK);
            if (o != null && (optimum == null || o.compareTo(optimum) < 0)) {
                optimum = o;
            }
        }
        if (optimum == null) {
            Tally.collect("no room to make");
            return;
        }
        NodeVerdict ours = decision.chosen().get(0);
        assertThat(ours.victims().objective()).isEqualTo(optimum);
        assertThat(oracle(s, ours.node(), uids(ours), WorkRank.FIRST_TIE_BREAK)).isEqualTo(optimum);

        Objective theirs = schedulersPick(s, pending, nodes);
        boolean tied = theirs.pdbViolations() == optimum.pdbViolations() && theirs.highestPriority() == optimum.highestPriority()
                && theirs.victims() == optimum.victims() && theirs.prioritySum() == optimum.prioritySum();
        Tally.collect(!tied ? "the scheduler's pick is worse before the work"
                : theirs.workLost() > optimum.workLost() ? "tied, the scheduler's pick loses more work" : "tied, as much work");
        Tally.coverage(cover -> cover.check("tied, the scheduler's pick loses more work").percentage(p -> p > 5));
        if (tied) {
            assertThat(optimum.workLost()).isLessThanOrEqualTo(theirs.workLost());
        }
    }

    /**
     * The kube-scheduler's own pick (pickOneNodeForPreemption) among the nodes where it can make room: on each,
     * the victims its reprieve leaves; then fewest violations, lowest highest priority, least priority sum,
     * fewest victims, and the latest earliest start among the highest-priority victims. Its objective.
     */
    private static Objective schedulersPick(ClusterSnapshot s, PodInfo pending, List<String> nodes) {
        Decider reprieve = decider(Strategy.KUBE_DEFAULT, PreemptionObjective.KUBERNETES, AnswerMode.ALL);
        Objective best = null;
        Instant bestStart = null;
        for (NodeVerdict v : reprieve.decide(s, pending, nodes).verdicts()) {
            if (!v.isFeasible()) {
                continue;
            }
            Objective o = oracle(s, v.node(), uids(v), WorkRank.FIRST_TIE_BREAK);
            Instant start = v.victims().victims().stream().filter(p -> p.priority() == o.highestPriority())
                    .map(PodInfo::startTime).min(Instant::compareTo).orElseThrow();
            int c = best == null ? -1 : Long.compare(o.pdbViolations(), best.pdbViolations());
            if (c == 0) c = Long.compare(o.highestPriority(), best.highestPriority());
            if (c == 0) c = Long.compare(o.prioritySum(), best.prioritySum());
            if (c == 0) c = Long.compare(o.victims(), best.victims());
            if (c == 0) c = bestStart.compareTo(start); // the later start wins
            if (c < 0) {
                best = o;
                bestStart = start;
            }
        }
        return best;
    }

    /** A full node of 30 to 60 pods of two priorities, no budgets: the search's aids for large pools at work. */
    @Provide
    Gen<List<Pod>> manyPods() {
        Gen<Pod> pod = Gens.combine(Gens.integers().between(0, 1), Gens.integers().between(1, 3), Gens.integers().between(0, 1),
                Gens.integers().between(10, 3 * 24 * 60), Gens.integers().between(0, 9))
                .as((priority, cpu, gpus, started, saved) -> new Pod(priority, cpu, gpus, started,
                        saved < 4 ? Math.min(started, saved * 7) : -1, -1, cpu == 3));
        return pod.list().ofMinSize(30).ofMaxSize(60);
    }

    /**
     * Where brute force cannot go: without budgets, and with the highest priority settled (the lower one
     * when its pods alone can make room), every further part of the objective is a sum, so the least is
     * found by a dynamic programme over what is freed (capped at what is short).
     */
    @Property(tries = 60)
    void on_a_full_node_of_many_pods_the_answer_equals_a_dynamic_programme(@ForAll("manyPods") List<Pod> pods,
                                                                           @ForAll @IntRange(min = 4, max = 40) int cpu,
                                                                           @ForAll @IntRange(min = 1, max = 14) int gpus) {
        Case c = new Case(pods, cpu, gpus, new int[] {0, 0});
        ClusterSnapshot s = snapshot(List.of(c), 64, 16);
        PodInfo pending = pending(c);
        NodeVerdict verdict = workLost(AnswerMode.BEST).decide(s, pending, List.of("n")).verdicts().get(0);
        Objective optimum = dynamicProgramme(s, pending, 0);
        optimum = optimum != null ? optimum : dynamicProgramme(s, pending, 1);
        if (optimum == null || fitsWithout(s, "n", pending, Set.of())) {
            Tally.collect("no search");
            assertThat(verdict.isFeasible()).isFalse();
            return;
        }
        Tally.collect(verdict.stats().statesExplored() >= 512 ? "a hard search" : "an easy search");
        assertThat(verdict.isFeasible()).isTrue();
        assertThat(verdict.provenOptimal()).isTrue();
        assertThat(fitsWithout(s, "n", pending, uids(verdict))).isTrue();
        assertThat(oracle(s, "n", uids(verdict))).isEqualTo(optimum);
    }

    /**
     * The least objective over sets of pods of at most priority {@code highest} that free what is short,
     * no budgets, when the lower priorities cannot (then every such set has a pod of {@code highest});
     * null when none does.
     */
    private static Objective dynamicProgramme(ClusterSnapshot s, PodInfo pending, int highest) {
        List<PodInfo> all = s.node("n").pods();
        List<PodInfo> pods = all.stream().filter(p -> p.priority() <= highest).toList();
        int[] shortBy = new int[2];
        String[] dims = {"cpu", "nvidia.com/gpu"};
        long[] unit = {1000, 1};
        for (int d = 0; d < 2; d++) {
            String dim = dims[d];
            long used = all.stream().mapToLong(p -> p.requests().get(dim)).sum();
            shortBy[d] = (int) Math.max(0, (used + pending.requests().get(dim) - s.node("n").allocatable().get(dim))
                    / unit[d]);
        }
        // best[a][b]: the least cost vector (work, count, priority sum, qos, grace, age) freeing min(a) cores and min(b) GPUs
        long[][][] best = new long[shortBy[0] + 1][shortBy[1] + 1][];
        best[0][0] = new long[6];
        for (PodInfo p : pods) {
            long[] own = cost(p);
            int pc = (int) (p.requests().get("cpu") / 1000);
            int pg = (int) p.requests().get("nvidia.com/gpu");
            long[][][] next = new long[best.length][][];
            for (int a = 0; a < best.length; a++) {
                next[a] = best[a].clone();
            }
            for (int a = 0; a < best.length; a++) {
                for (int b = 0; b < best[a].length; b++) {
                    if (best[a][b] == null) {
                        continue;
                    }
                    int na = Math.min(shortBy[0], a + pc);
                    int nb = Math.min(shortBy[1], b + pg);
                    long[] with = new long[6];
                    for (int k = 0; k < 6; k++) {
                        with[k] = best[a][b][k] + own[k];
                    }
                    if (next[na][nb] == null || java.util.Arrays.compare(with, next[na][nb]) < 0) {
                        next[na][nb] = with;
                    }
                }
            }
            best = next;
        }
        long[] least = best[shortBy[0]][shortBy[1]];
        if (least == null) {
            return null;
        }
        return new Objective(0, highest, least[0], least[1], least[2], new long[] {least[3], 0, least[4], least[5]}, WorkRank.BEFORE_COUNT);
    }

    /** One pod's (work, 1, priority, qos rank, grace, age), as {@link #oracle} adds them up. */
    private static long[] cost(PodInfo p) {
        Objective alone = oracle(p);
        return new long[] {alone.workLost(), 1, alone.prioritySum(), alone.tieBreak(TieBreak.QOS_RANK),
                alone.tieBreak(TieBreak.GRACE_PERIOD), alone.tieBreak(TieBreak.AGE)};
    }

    private static Decider workLost(AnswerMode answer) {
        return decider(Strategy.MINIMAL, PreemptionObjective.WORK_LOST, answer);
    }

    private static Decider decider(Strategy strategy, PreemptionObjective objective, AnswerMode answer) {
        PreemptionSettings settings = new PreemptionSettings(strategy, answer, PdbMode.PREFER,
                Duration.ofSeconds(10)).with(objective);
        return new Decider(new PreemptionEngine(settings, System::nanoTime, () -> NOW));
    }

    // ---- the oracle, sharing nothing with the engine ----

    private static Objective bruteForce(ClusterSnapshot s, String node, PodInfo pending) {
        return bruteForce(s, node, pending, WorkRank.BEFORE_COUNT);
    }

    private static Objective bruteForce(ClusterSnapshot s, String node, PodInfo pending, WorkRank rank) {
        List<PodInfo> pool = s.node(node).pods().stream().filter(p -> p.priority() < PENDING_PRIORITY).toList();
        Objective best = null;
        for (int mask = 1; mask < (1 << pool.size()); mask++) {
            Set<String> victims = new HashSet<>();
            for (int i = 0; i < pool.size(); i++) {
                if ((mask & (1 << i)) != 0) {
                    victims.add(pool.get(i).uid());
                }
            }
            if (fitsWithout(s, node, pending, victims)) {
                Objective o = oracle(s, node, victims, rank);
                if (best == null || o.compareTo(best) < 0) {
                    best = o;
                }
            }
        }
        return best;
    }

    /** Violations, highest priority, work lost, count, priority sum, then QoS, originators, grace, age. */
    private static Objective oracle(ClusterSnapshot s, String node, Set<String> victims) {
        return oracle(s, node, victims, WorkRank.BEFORE_COUNT);
    }

    /** As above, with work lost where {@code rank} puts it. */
    private static Objective oracle(ClusterSnapshot s, String node, Set<String> victims, WorkRank rank) {
        return oracle(s.node(node).pods().stream().filter(p -> victims.contains(p.uid())).toList(), s.budgets(), rank);
    }

    private static Objective oracle(PodInfo alone) {
        return oracle(List.of(alone), List.of(), WorkRank.BEFORE_COUNT);
    }

    private static Objective oracle(List<PodInfo> victims, List<DisruptionBudget> budgets, WorkRank rank) {
        long[] spent = new long[2];
        long highest = Long.MIN_VALUE, work = 0, count = 0, sum = 0, qos = 0, grace = 0, age = 0;
        for (PodInfo v : victims) {
            String label = v.labels().get("pdb");
            if (label != null) {
                spent[Integer.parseInt(label)]++;
            }
            highest = Math.max(highest, v.priority());
            Instant from = v.checkpointedAt() != null && v.checkpointedAt().isAfter(v.startTime())
                    ? v.checkpointedAt() : v.startTime();
            long seconds = Math.min(DAY, Duration.between(from, NOW).toSeconds());
            long perSecond = v.requests().get("cpu") + 50_000 * v.requests().get("nvidia.com/gpu"); // milli-units
            work += perSecond * seconds;
            count++;
            sum += v.priority();
            qos += v.qos().ordinal();
            grace += v.terminationGracePeriodSeconds();
            age += Duration.between(v.startTime(), Instant.parse("2200-01-01T00:00:00Z")).toSeconds();
        }
        long violations = 0;
        for (int k = 0; k < budgets.size(); k++) {
            violations += Math.max(0, spent[k] - budgets.get(k).disruptionsAllowed());
        }
        return new Objective(violations, highest, work, count, sum, new long[] {qos, 0, grace, age}, rank);
    }

    private static boolean fitsWithout(ClusterSnapshot s, String node, PodInfo pending, Set<String> victims) {
        for (String dim : List.of("cpu", "nvidia.com/gpu")) {
            long used = s.node(node).pods().stream().filter(p -> !victims.contains(p.uid()))
                    .mapToLong(p -> p.requests().get(dim)).sum();
            if (used + pending.requests().get(dim) > s.node(node).allocatable().get(dim)) {
                return false;
            }
        }
        return true;
    }

    private static Set<String> uids(NodeVerdict v) {
        Set<String> uids = new HashSet<>();
        if (v.isFeasible()) {
            v.victims().victims().forEach(p -> uids.add(p.uid()));
        }
        return uids;
    }

    /** One 16-cpu, 8-GPU node per case, named n (one case) or n0, n1, ...; a case's pods are fitted by scaling down. */
    private static ClusterSnapshot snapshot(List<Case> cases) {
        return snapshot(cases, 16, 8);
    }

    private static ClusterSnapshot snapshot(List<Case> cases, int cores, int gpuCount) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (int n = 0; n < cases.size(); n++) {
            String node = cases.size() == 1 ? "n" : "n" + n;
            b.node(node, Map.of(), Resources.of(Map.of("cpu", 1000L * cores, "nvidia.com/gpu", (long) gpuCount,
                    Resources.PODS, 110L)));
            long cpu = 0;
            long gpus = 0;
            List<Pod> pods = cases.get(n).pods();
            for (int i = 0; i < pods.size(); i++) {
                Pod p = pods.get(i);
                if (cpu + p.cpu() > cores || gpus + p.gpus() > gpuCount) {
                    continue; // the node is full: the pod would not be running here
                }
                cpu += p.cpu();
                gpus += p.gpus();
                b.pod(pod(p, node + "-p" + i, node));
            }
        }
        for (int k = 0; k < 2; k++) {
            b.budget(new DisruptionBudget("default", "pdb-" + k, LabelSelector.matching(Map.of("pdb", "" + k)),
                    cases.get(0).allowed()[k], Set.of()));
        }
        return b.build();
    }

    private static PodInfo pod(Pod p, String uid, String node) {
        Resources requests = Resources.of(Map.of("cpu", 1000L * p.cpu(), "nvidia.com/gpu", (long) p.gpus()));
        Instant start = NOW.minusSeconds(60L * p.startMinutesAgo());
        return PodInfo.builder(uid).nodeName(node).priority(p.priority()).requests(requests)
                .qos(p.burstable() ? QosClass.BURSTABLE : QosClass.GUARANTEED)
                .labels(p.budget() < 0 ? Map.of() : Map.of("pdb", "" + p.budget()))
                .terminationGracePeriodSeconds(30).startTime(start)
                .checkpointedAt(p.savedMinutesAgo() < 0 ? null : NOW.minusSeconds(60L * p.savedMinutesAgo()))
                .build();
    }

    private static PodInfo pending(Case c) {
        return PodInfo.builder("pending").priority(PENDING_PRIORITY)
                .requests(Resources.of(Map.of("cpu", 1000L * c.pendingCpu(), "nvidia.com/gpu", (long) c.pendingGpus())))
                .build();
    }
}
