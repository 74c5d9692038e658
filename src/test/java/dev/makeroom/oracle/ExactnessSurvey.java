package dev.makeroom.oracle;

import dev.makeroom.bench.FullSizeNodes;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.QueueRules;
import dev.makeroom.core.room.Strategy;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How often makeroom's search, within its default budget, proves its answer and answers the
 * optimum that {@link SolverOracle} finds, per shape and size of {@link FullSizeNodes}; and how
 * often the kube-scheduler's own heuristic does. Prints one line per shape and size.
 *
 * <pre>./mvnw -B -Pbench test-compile exec:exec -Dbench.main=dev.makeroom.oracle.ExactnessSurvey -Dbench.args="200 40,70,110"</pre>
 */
public final class ExactnessSurvey {

    private ExactnessSurvey() {
    }

    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int[] sizes = args.length > 1 ? Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray()
                : new int[] {40, 70, 110};
        PreemptionEngine minimal = engine(Strategy.MINIMAL);
        PreemptionEngine kube = engine(Strategy.KUBE_DEFAULT);
        warmUp(minimal, kube);
        System.out.println("| shape | pods | nodes | proven | optimal (oracle) | fewest victims (oracle) | kube-default optimal | worse than kube-default | p99 ms |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (FullSizeNodes.Shape shape : FullSizeNodes.Shape.values()) {
            for (int size : sizes) {
                survey(shape, size, nodes, minimal, kube);
            }
        }
    }

    private static void survey(FullSizeNodes.Shape shape, int size, int count, PreemptionEngine minimal,
                               PreemptionEngine kube) {
        int decided = 0, proven = 0, optimal = 0, fewest = 0, kubeOptimal = 0, worse = 0, unproven = 0;
        long[] nanos = new long[count];
        for (int seed = 0; seed < count; seed++) {
            FullSizeNodes.Node node = FullSizeNodes.generate(shape, size, seed);
            SolverOracle oracle = new SolverOracle(node);
            NodeVerdict mine = verdict(minimal, node);
            nanos[seed] = mine.stats().nanos();
            if (!mine.isFeasible()) {
                continue;
            }
            long[] optimum;
            try {
                optimum = oracle.optimum(20);
            } catch (SolverOracle.Unproven e) {
                unproven++;
                continue;
            }
            decided++;
            long[] ours = oracle.cost(victims(mine));
            long[] theirs = oracle.cost(victims(verdict(kube, node)));
            proven += mine.provenOptimal() ? 1 : 0;
            optimal += SolverOracle.compare(ours, optimum) == 0 ? 1 : 0;
            fewest += Arrays.equals(ours, 0, SolverOracle.COUNT + 1, optimum, 0, SolverOracle.COUNT + 1) ? 1 : 0;
            kubeOptimal += SolverOracle.compare(theirs, optimum) == 0 ? 1 : 0;
            worse += SolverOracle.compare(ours, theirs) > 0 ? 1 : 0;
        }
        Arrays.sort(nanos);
        System.out.printf("| %s | %d | %d | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %d | %.1f |%s%n", shape, size, decided,
                100.0 * proven / decided, 100.0 * optimal / decided, 100.0 * fewest / decided, 100.0 * kubeOptimal / decided, worse,
                nanos[(int) Math.min(count - 1, Math.ceil(0.99 * count) - 1)] / 1e6,
                unproven == 0 ? "" : " (" + unproven + " the solver did not prove)");
    }

    static NodeVerdict verdict(PreemptionEngine engine, FullSizeNodes.Node node) {
        ClusterSnapshot snapshot = node.snapshot();
        PodInfo pending = node.pending();
        return engine.decide(snapshot, pending, Candidate.onNodes(List.of("n")), QueueRules.off()).verdicts().get(0);
    }

    static Set<Integer> victims(NodeVerdict verdict) {
        Set<Integer> victims = new HashSet<>();
        verdict.victims().victims().forEach(p -> victims.add(Integer.parseInt(p.uid().substring(1))));
        return victims;
    }

    static PreemptionEngine engine(Strategy strategy) {
        return new PreemptionEngine(new PreemptionSettings(strategy, AnswerMode.ALL, PdbMode.PREFER,
                Duration.ofMillis(50)), System::nanoTime, java.time.InstantSource.fixed(FullSizeNodes.PAST_HORIZON));
    }

    /** Compiles the search before anything is timed, as a running makeroom has. */
    private static void warmUp(PreemptionEngine minimal, PreemptionEngine kube) {
        for (int seed = 1000; seed < 1200; seed++) {
            FullSizeNodes.Node node = FullSizeNodes.generate(FullSizeNodes.Shape.values()[seed % 4], 40, seed);
            verdict(minimal, node);
            verdict(kube, node);
        }
    }
}
