package dev.makeroom.core.room;

import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import org.junit.jupiter.api.Test;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import dev.makeroom.support.property.Tally;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The victim search's lower bounds ({@link TiedCountBound}, {@link CoverTable}) against every
 * subset of small pools: with equal and with tuned multipliers, each bound is at most the truth it
 * bounds (the fewest pods, the fewest violations, the least priority sum of a set of a given size),
 * and the cover table is the truth itself where it models every constraint. The search is exact
 * only if they are; on full-size nodes they are checked through the search's answers against an
 * exact solver, here directly.
 */
class TiedCountBoundProperties {

    private static final String[] DIMS = {"cpu", "memory", "example.com/gpu"};
    private static final Deadline NEVER = new Deadline(() -> 0, 1);
    private static final Deadline PASSED = new Deadline(() -> 1, 1);

    record PodSpec(int priority, int[] amounts, int budget) {
    }

    record Case(List<PodSpec> pods, int[] need, int[] allowed, int dims, boolean podsNeeded) {
    }

    @Provide
    Gen<Case> cases() {
        Gen<PodSpec> pod = Gens.combine(
                Gens.integers().between(0, 3),
                Gens.integers().between(0, 7).arrays().ofSize(DIMS.length),
                Gens.integers().between(-1, 2)).as(PodSpec::new);
        return Gens.combine(pod.list().ofMinSize(1).ofMaxSize(12),
                Gens.integers().between(1, 16).arrays().ofSize(DIMS.length),
                Gens.integers().between(0, 2).arrays().ofSize(3),
                Gens.integers().between(1, DIMS.length),
                Gens.of(true, false)).as(Case::new);
    }

    @Property(tries = 400)
    void every_bound_is_at_most_the_truth(@ForAll("cases") Case c, @ForAll boolean tuned) {
        CandidatePool pool = pool(c);
        TiedCountBound bound = boundOver(pool);
        ObjectiveSum root = new ObjectiveSum(pool);
        long[] freed = new long[pool.need.length];
        Truth truth = Truth.of(pool);
        if (tuned && truth.anyCover()) {
            // tuned for the best set there is, as a search would be once it has found it
            bound.tune(truth.best, freed, root);
        }
        for (int highest = 0; highest <= 3; highest++) {
            int violations = bound.fewestMoreViolations(0, highest, freed, root);
            int trueViolations = truth.fewestViolations(highest);
            if (trueViolations == Integer.MAX_VALUE) {
                continue; // pods up to this priority cannot cover: any bound is true
            }
            assertThat(violations).as("violations bound up to priority %d", highest).isLessThanOrEqualTo(trueViolations);
            for (int slack = 0; slack <= 2; slack++) {
                int fewest = bound.fewest(0, highest, freed, root, slack, Integer.MAX_VALUE);
                int trueFewest = truth.fewestPods(highest, slack);
                if (trueFewest == Integer.MAX_VALUE) {
                    continue;
                }
                assertThat(fewest).as("count bound up to priority %d, slack %d", highest, slack).isLessThanOrEqualTo(trueFewest);
                // the priority sum of sets of exactly the fewest pods: read with the classes and slack just set
                long leastSum = bound.leastPrioritySumCovering(0, trueFewest, freed, root, Long.MAX_VALUE);
                assertThat(leastSum).as("priority sum bound").isLessThanOrEqualTo(truth.leastPrioritySum(highest, slack, trueFewest));
            }
        }
        Tally.collect(tuned ? "tuned" : "equal multipliers");
    }

    /**
     * {@code huge}: amounts of some 2^32 bytes, each a few bytes off a whole multiple and the need
     * a few bytes past one, so that the table must count in coarser units than the amounts' divisor.
     */
    @Property(tries = 400)
    void the_cover_table_is_at_most_the_fewest_pods(@ForAll("cases") Case c, @ForAll boolean huge) {
        CandidatePool pool = pool(c, huge);
        int[][] classes = MinimalVictimSearch.classesOf(pool);
        Truth truth = Truth.of(pool);
        long[] freed = new long[pool.need.length];
        for (int highest = 0; highest <= 3; highest++) {
            for (int slack = 0; slack <= 2; slack++) {
                CoverTable table = CoverTable.build(pool, classes, endFor(pool, classes, highest), slack, pool.size(), NEVER);
                int trueFewest = truth.fewestPods(highest, slack);
                if (table != null && trueFewest != Integer.MAX_VALUE) {
                    assertThat(table.fewest(0, freed, 0, Integer.MAX_VALUE))
                            .as("cover table up to priority %d, slack %d", highest, slack).isLessThanOrEqualTo(trueFewest);
                }
            }
        }
    }

    /**
     * With no budgets and at most three resources missing (two axes and a level), the table models
     * every constraint: from every class on, having freed what a random set of the earlier classes
     * frees, it finds the fewest further pods exactly, or that none suffice.
     */
    @Property(tries = 400)
    void without_budgets_the_cover_table_is_exact(@ForAll("cases") Case withBudgets, @ForAll long seed) {
        Case c = new Case(withBudgets.pods().stream().map(p -> new PodSpec(p.priority(), p.amounts(), -1)).toList(),
                withBudgets.need(), withBudgets.allowed(),
                withBudgets.podsNeeded() ? Math.min(withBudgets.dims(), 2) : withBudgets.dims(), withBudgets.podsNeeded());
        CandidatePool pool = pool(c);
        int[][] classes = MinimalVictimSearch.classesOf(pool);
        CoverTable table = CoverTable.build(pool, classes, classes.length, 0, pool.size(), NEVER);
        if (table == null) {
            assertThat(classes).as("a table is built whenever some class frees what is needed").isEmpty();
            return;
        }
        if (classes.length > 0) { // with no class there is nothing to build
            assertThat(CoverTable.build(pool, classes, classes.length, 0, pool.size(), PASSED))
                    .as("no table once the search's deadline has passed").isNull();
        }
        java.util.Random random = new java.util.Random(seed);
        for (int from = 0; from < classes.length; from++) {
            boolean[] taken = new boolean[pool.size()];
            long[] freed = new long[pool.need.length];
            for (int earlier = 0; earlier < from; earlier++) {
                for (int i : classes[earlier]) {
                    if (random.nextBoolean()) {
                        taken[i] = true;
                        pool.addFreed(freed, i, 1);
                    }
                }
            }
            int trueFewest = fewestFrom(pool, classes, from, freed);
            int fewest = table.fewest(from, freed, 0, Integer.MAX_VALUE);
            if (trueFewest == Integer.MAX_VALUE) {
                assertThat(fewest).as("from class %d: none suffice", from).isGreaterThan(pool.size());
            } else {
                assertThat(fewest).as("from class %d", from).isEqualTo(trueFewest);
            }
        }
    }

    /** The end of the classes of priority at most {@code highest}. */
    private static int endFor(CandidatePool pool, int[][] classes, int highest) {
        int end = 0;
        while (end < classes.length && pool.priority(classes[end][0]) <= highest) {
            end++;
        }
        return end;
    }

    /** By brute force: the fewest pods of classes {@code from..} that free what {@code freed} leaves missing. */
    private static int fewestFrom(CandidatePool pool, int[][] classes, int from, long[] freed) {
        int[] pods = Arrays.stream(classes, from, classes.length).flatMapToInt(Arrays::stream).toArray();
        int fewest = Integer.MAX_VALUE;
        for (int mask = 0; mask < 1 << pods.length; mask++) {
            long[] sum = freed.clone();
            for (int j = 0; j < pods.length; j++) {
                if ((mask >> j & 1) == 1) {
                    pool.addFreed(sum, pods[j], 1);
                }
            }
            if (pool.covers(sum)) {
                fewest = Math.min(fewest, Integer.bitCount(mask));
            }
        }
        return fewest;
    }

    /**
     * Why the multipliers are tuned: cpu-heavy and memory-heavy pods on a node at its pod limit.
     * Two of either kind free enough of one resource and every pod frees the pod count, so the
     * per-resource bound says 2 and equal multipliers (the pod count weighing as much as cpu) say 2
     * as well; it takes 4, which the tuned multipliers prove.
     */
    @Test
    void tuned_multipliers_see_what_competing_resources_need() {
        List<PodSpec> pods = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            pods.add(new PodSpec(1, new int[] {4, 1, 0}, -1));
            pods.add(new PodSpec(1, new int[] {1, 4, 0}, -1));
        }
        CandidatePool pool = pool(new Case(pods, new int[] {8, 8, 0}, new int[3], 2, true));
        TiedCountBound bound = boundOver(pool);
        ObjectiveSum root = new ObjectiveSum(pool);
        long[] freed = new long[pool.need.length];
        assertThat(bound.fewest(0, 1, freed, root)).isEqualTo(2);
        Truth truth = Truth.of(pool);
        assertThat(truth.fewestPods(1, 0)).isEqualTo(4);
        bound.tune(truth.best, freed, root);
        assertThat(bound.fewest(0, 1, freed, root)).isEqualTo(4);
    }

    /** The bounds over the pool's classes as the search builds them. */
    private static TiedCountBound boundOver(CandidatePool pool) {
        int[][] classes = MinimalVictimSearch.classesOf(pool);
        int[] classPriority = Arrays.stream(classes).mapToInt(k -> pool.priority(k[0])).toArray();
        return new TiedCountBound(pool, classes, classPriority);
    }

    private static CandidatePool pool(Case c) {
        return pool(c, false);
    }

    private static CandidatePool pool(Case c, boolean huge) {
        long scale = huge ? 1L << 32 : 1;
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < c.pods().size(); i++) {
            PodSpec p = c.pods().get(i);
            Map<String, Long> requests = new HashMap<>();
            for (int d = 0; d < c.dims(); d++) {
                long amount = p.amounts()[d] * scale;
                requests.put(DIMS[d], huge && amount > 0 ? amount + 1 + i % 7 : amount);
            }
            pods.add(PodInfo.builder("p" + i).name("p" + i).nodeName("n").priority(p.priority())
                    .requests(Resources.of(requests)).labels(p.budget() < 0 ? Map.of() : Map.of("budget", "b" + p.budget()))
                    .build());
        }
        List<DisruptionBudget> budgets = new ArrayList<>();
        for (int b = 0; b < c.allowed().length; b++) {
            budgets.add(new DisruptionBudget("default", "b" + b, LabelSelector.matching(Map.of("budget", "b" + b)),
                    c.allowed()[b], Set.of()));
        }
        Map<String, Long> deficit = new HashMap<>();
        for (int d = 0; d < c.dims(); d++) {
            deficit.put(DIMS[d], huge ? c.need()[d] * scale + 3 : c.need()[d]);
        }
        if (c.podsNeeded()) {
            deficit.put(Resources.PODS, 1L); // a node at its pod limit: every victim frees one
        }
        return new CandidatePool(pods, Resources.of(deficit), Set.of(),
                pod -> budgets.stream().filter(b -> b.covers(pod)).toList(), false);
    }

    /** Every covering subset of the pool, by brute force. */
    private record Truth(CandidatePool pool, List<boolean[]> covers, Objective best) {

        static Truth of(CandidatePool pool) {
            List<boolean[]> covers = new ArrayList<>();
            Objective best = null;
            for (int mask = 0; mask < 1 << pool.size(); mask++) {
                boolean[] set = new boolean[pool.size()];
                for (int i = 0; i < set.length; i++) {
                    set[i] = (mask >> i & 1) == 1;
                }
                if (pool.fits(set)) {
                    covers.add(set);
                    Objective o = ObjectiveSum.over(pool, set).objective();
                    best = best == null || o.isBetterThan(best) ? o : best;
                }
            }
            return new Truth(pool, covers, best);
        }

        boolean anyCover() {
            return best != null;
        }

        int fewestViolations(int highest) {
            return (int) covers.stream().filter(s -> highestOf(s) <= highest)
                    .mapToLong(s -> ObjectiveSum.over(pool, s).violations()).min().orElse(Integer.MAX_VALUE);
        }

        int fewestPods(int highest, int slack) {
            return (int) within(highest, slack).mapToLong(s -> ObjectiveSum.over(pool, s).count()).min()
                    .orElse(Integer.MAX_VALUE);
        }

        long leastPrioritySum(int highest, int slack, int size) {
            return within(highest, slack).filter(s -> ObjectiveSum.over(pool, s).count() == size)
                    .mapToLong(s -> ObjectiveSum.over(pool, s).prioritySum()).min().orElse(Long.MAX_VALUE);
        }

        private java.util.stream.Stream<boolean[]> within(int highest, int slack) {
            return covers.stream().filter(s -> highestOf(s) <= highest && ObjectiveSum.over(pool, s).violations() <= slack);
        }

        private long highestOf(boolean[] set) {
            long highest = Long.MIN_VALUE;
            for (int i = 0; i < set.length; i++) {
                highest = set[i] ? Math.max(highest, pool.priority(i)) : highest;
            }
            return highest;
        }
    }
}
