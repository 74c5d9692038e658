package dev.makeroom.core.room;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import dev.makeroom.support.property.IntRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scan's fewest counts equal the smallest number of candidates whose amounts reach what is short,
 * found by trying every subset: few large pods (the kept largest answer) and many small ones (past
 * the kept few, the amounts are sorted), with and without a ceiling on their priority.
 */
class CandidateScanProperties {

    @Property(tries = 400)
    void the_fewest_counts_are_the_smallest_subsets_that_free_what_is_short(
            @ForAll("pods") List<PodInfo> candidates, @ForAll @IntRange(min = 1, max = 12) int cpuShort,
            @ForAll @IntRange(min = 0, max = 6) int memoryShort, @ForAll @IntRange(min = 0, max = 3) int ceiling) {
        Resources deficit = memoryShort == 0 ? Resources.of("cpu", cpuShort)
                : Resources.of("cpu", cpuShort, "memory", memoryShort);

        CandidateScan scan = CandidateScan.of(candidates, null, null, deficit, ceiling);

        assertThat(scan.fewest()).isEqualTo(smallestSubset(candidates, deficit, Integer.MAX_VALUE));
        assertThat(scan.fewestUpToCeiling()).isEqualTo(smallestSubset(candidates, deficit, ceiling));
        assertThat(scan.lowestPriority()).isEqualTo(candidates.stream().mapToInt(PodInfo::priority).min().orElse(Integer.MAX_VALUE));
    }

    /** The fewest, over the short resources, of the pods of at most {@code ceiling} whose amounts reach it; -1 if none. */
    private static int smallestSubset(List<PodInfo> pods, Resources deficit, int ceiling) {
        int most = 0;
        for (int d = 0; d < deficit.size(); d++) {
            int best = -1;
            for (int mask = 0; mask < 1 << pods.size(); mask++) {
                long freed = 0;
                for (int i = 0; i < pods.size(); i++) {
                    if ((mask & 1 << i) != 0 && pods.get(i).priority() <= ceiling) {
                        freed += pods.get(i).frees(deficit.name(d));
                    }
                }
                if (freed >= deficit.value(d) && (best < 0 || Integer.bitCount(mask) < best)) {
                    best = Integer.bitCount(mask);
                }
            }
            if (best < 0) {
                return -1;
            }
            most = Math.max(most, best);
        }
        return most;
    }

    @Provide
    Gen<List<PodInfo>> pods() {
        Gen<int[]> spec = Gens.integers().between(0, 4).arrays().ofSize(3); // priority, cpu, memory
        Gen<Integer> largest = Gens.of(1, 5); // many small pods, or fewer larger ones
        return largest.flatMap(max -> spec.list().ofMaxSize(12).map(specs -> {
            List<PodInfo> pods = new ArrayList<>();
            for (int i = 0; i < specs.size(); i++) {
                int[] s = specs.get(i);
                pods.add(PodInfo.builder("p" + i).nodeName("n").priority(s[0])
                        .requests(Resources.of(Map.of("cpu", (long) Math.min(s[1], max), "memory", (long) Math.min(s[2], max))))
                        .build());
            }
            return pods;
        }));
    }
}
