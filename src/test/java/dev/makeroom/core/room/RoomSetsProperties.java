package dev.makeroom.core.room;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.preemption.Scenario;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import dev.makeroom.support.property.IntRange;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sets {@link RoomSets} yields for a size, posed by {@link NodeProblem} for preemption's
 * {@link Eligibility} (only priority decides here), against every subset of the node's pods checked by hand: the same sets, no more
 * and no fewer.
 */
class RoomSetsProperties {

    private static final int PENDING_PRIORITY = 4;
    private static final HostPort PORT = new HostPort(null, null, 8080);

    /** A running pod: its priority, cpu and memory, and whether it holds the pending pod's host port. */
    record PodSpec(int priority, int cpu, int memory, boolean port) {
    }

    @Provide
    Gen<List<PodSpec>> pods() {
        return Gens.combine(Gens.integers().between(0, 6), Gens.integers().between(0, 5),
                        Gens.integers().between(0, 5), Gens.integers().between(0, 7).map(i -> i == 0))
                .as(PodSpec::new).list().ofMaxSize(10);
    }

    @Property(tries = 300)
    void yieldsExactlyTheSetsThatMakeRoom(@ForAll("pods") List<PodSpec> specs,
                                          @ForAll @IntRange(min = 1, max = 12) int cpuAsked,
                                          @ForAll @IntRange(min = 0, max = 8) int memoryAsked,
                                          @ForAll @IntRange(min = 0, max = 6) int priorityCap) {
        Scenario scenario = new Scenario().node("n", "cpu", 12, "memory", 12);
        for (int i = 0; i < specs.size(); i++) {
            PodSpec spec = specs.get(i);
            scenario.on("n", Scenario.pod("p" + i, spec.priority(), "cpu", spec.cpu(), "memory", spec.memory())
                    .hostPorts(spec.port() ? List.of(PORT) : List.of()));
        }
        ClusterSnapshot snapshot = scenario.snapshot();
        PodInfo pending = Scenario.pending(PENDING_PRIORITY, "cpu", cpuAsked, "memory", memoryAsked).toBuilder()
                .hostPorts(List.of(PORT)).build();
        // none of the pods opts out, terminates or is a mirror pod: only priority decides
        Eligibility lowerPriority = Eligibility.toPreempt(pending, snapshot, QueueRules.off());
        NodeProblem problem = NodeProblem.pose(PodPlacement.of(new SnapshotState(snapshot, Instant.EPOCH), pending),
                snapshot.node("n"), lowerPriority);

        boolean portHeldByProtected = specs.stream().anyMatch(s -> s.port() && s.priority() >= PENDING_PRIORITY);
        assertThat(problem.obstacle() != null).isEqualTo(portHeldByProtected);
        if (portHeldByProtected) {
            return;
        }
        RoomSets sets = RoomSets.of(problem);
        for (int size = 0; size <= specs.size(); size++) {
            Set<Set<String>> expected = byHand(specs, cpuAsked, memoryAsked, size, priorityCap);
            RoomSets.Found found = sets.ofSize(size, priorityCap, Deadline.after(System::nanoTime, Long.MAX_VALUE / 4));
            assertThat(found.timedOut()).isFalse();
            Set<Set<String>> yielded = found.sets().stream()
                    .map(set -> set.stream().map(PodInfo::name).collect(Collectors.toSet())).collect(Collectors.toSet());
            assertThat(found.sets()).as("no set twice").hasSize(yielded.size());
            assertThat(yielded).as("size " + size).isEqualTo(expected);
        }
        boolean anyWithoutCap = !byHandAnySize(specs, cpuAsked, memoryAsked).isEmpty();
        assertThat(sets.coverable()).isEqualTo(anyWithoutCap);
    }

    /** Every set of {@code size} pods: all holding the port, only pods below the pending priority, the optional ones at most the cap, freeing enough. */
    private static Set<Set<String>> byHand(List<PodSpec> specs, int cpuAsked, int memoryAsked, int size, int cap) {
        Set<Set<String>> out = new HashSet<>();
        for (List<Integer> subset : subsets(specs.size())) {
            if (subset.size() != size) {
                continue;
            }
            boolean ok = true;
            for (int i = 0; i < specs.size(); i++) {
                PodSpec s = specs.get(i);
                boolean in = subset.contains(i);
                ok &= !(s.port() && !in) && !(in && s.priority() >= PENDING_PRIORITY) && !(in && !s.port() && s.priority() > cap);
            }
            if (ok && freesEnough(specs, subset, cpuAsked, memoryAsked)) {
                out.add(subset.stream().map(i -> "p" + i).collect(Collectors.toSet()));
            }
        }
        return out;
    }

    /** The sets of any size, without a cap, that make room. */
    private static List<List<Integer>> byHandAnySize(List<PodSpec> specs, int cpuAsked, int memoryAsked) {
        List<List<Integer>> out = new ArrayList<>();
        for (List<Integer> subset : subsets(specs.size())) {
            boolean ok = true;
            for (int i = 0; i < specs.size(); i++) {
                PodSpec s = specs.get(i);
                ok &= !(s.port() && !subset.contains(i)) && !(subset.contains(i) && s.priority() >= PENDING_PRIORITY);
            }
            if (ok && freesEnough(specs, subset, cpuAsked, memoryAsked)) {
                out.add(subset);
            }
        }
        return out;
    }

    private static boolean freesEnough(List<PodSpec> specs, List<Integer> gone, int cpuAsked, int memoryAsked) {
        int cpu = 0;
        int memory = 0;
        for (int i = 0; i < specs.size(); i++) {
            if (!gone.contains(i)) {
                cpu += specs.get(i).cpu();
                memory += specs.get(i).memory();
            }
        }
        // as NodeResourcesFit: a resource the pod does not ask for is not checked, however full
        return cpu + cpuAsked <= 12 && (memoryAsked == 0 || memory + memoryAsked <= 12);
    }

    private static List<List<Integer>> subsets(int n) {
        List<List<Integer>> out = new ArrayList<>();
        for (int mask = 0; mask < (1 << n); mask++) {
            List<Integer> subset = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if ((mask & (1 << i)) != 0) {
                    subset.add(i);
                }
            }
            out.add(subset);
        }
        return out;
    }
}
