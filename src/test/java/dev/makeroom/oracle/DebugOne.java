package dev.makeroom.oracle;

import dev.makeroom.bench.FullSizeNodes;
import dev.makeroom.core.preemption.NodeVerdict;
import dev.makeroom.core.preemption.Strategy;
import java.util.Arrays;

public final class DebugOne {
    public static void main(String[] args) {
        var shape = FullSizeNodes.Shape.valueOf(args[0]);
        int size = Integer.parseInt(args[1]);
        var engine = ExactnessSurvey.engine(Strategy.MINIMAL);
        for (int seed = 0; seed < Integer.parseInt(System.getProperty("seeds", "30")); seed++) {
            var node = FullSizeNodes.generate(shape, size, seed);
            NodeVerdict v = ExactnessSurvey.verdict(engine, node);
            if (!v.isFeasible()) continue;
            var oracle = new SolverOracle(node);
            long[] opt = oracle.optimum(20);
            long[] ours = oracle.cost(ExactnessSurvey.victims(v));
            if (!Arrays.equals(opt, ours) || !v.provenOptimal()) {
                System.out.println("seed " + seed + " proven=" + v.provenOptimal() + " states=" + v.stats().statesExplored() + " gap=" + v.stats().gap()
                    + "\n  opt  " + Arrays.toString(opt) + "\n  ours " + Arrays.toString(ours)
                    );
                if (args.length > 2) for (int i = 0; i < node.pods().size(); i++) System.out.println("   p" + i + " " + node.pods().get(i));
            }
        }
    }
}
