package dev.makeroom.oracle;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.preemption.DecisionOutcome;
import dev.makeroom.core.preemption.PreemptionDecision;
import dev.makeroom.core.preemption.Scenario;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.Objective;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Assumptions;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Tally;
import dev.makeroom.support.property.IntRange;
import dev.makeroom.support.property.LongRange;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Preemption with gangs on nodes too big for brute force (12 to 28 pods, three gangs of random minimums
 * with members elsewhere) against {@link GangSolverOracle}, an integer programming model of the gang
 * cost solved by CBC: makeroom's answer keeps the rule that a broken gang's members here go with it,
 * lets the pod fit, is costed as it reports, and is the optimum when it says it is proven (never
 * better than it). Needs {@code cbc}, as {@link ExactAtFullSizeProperties} does.
 */
class GangsExactProperties {

    @BeforeEach
    void solver() {
        ExactAtFullSizeProperties.solverNeeded();
    }

    private static final int PENDING_PRIORITY = 10;

    @Property(tries = 40)
    void the_answer_is_the_cheapest_under_the_gang_cost(@ForAll @IntRange(min = 12, max = 28) int size,
                                                        @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        Random random = new Random(seed);
        Gang[] gangs = new Gang[3];
        for (int g = 0; g < gangs.length; g++) {
            int min = random.nextInt(5); // 0: every member needed
            gangs[g] = new Gang("default", "coscheduling", "g" + g, min == 0 ? Gang.EVERY_MEMBER : min);
        }
        Scenario s = new Scenario().node("elsewhere", "cpu", 100_000, "memory", 100_000);
        long cpu = 0;
        long memory = 0;
        for (int i = 0; i < size; i++) {
            int gang = random.nextInt(6) - 3; // half of the pods in one of the gangs
            long podCpu = 100 * (1 + random.nextInt(8));
            long podMemory = 256 * (1 + random.nextInt(8));
            cpu += podCpu;
            memory += podMemory;
            s.on("n", Scenario.pod("p" + i, random.nextInt(PENDING_PRIORITY + 2), "cpu", podCpu, "memory", podMemory)
                    .gang(gang < 0 ? null : gangs[gang]));
        }
        for (int g = 0; g < gangs.length; g++) {
            int elsewhere = random.nextInt(4);
            for (int k = 0; k < elsewhere; k++) {
                s.on("elsewhere", Scenario.pod("g" + g + "-" + k, random.nextInt(PENDING_PRIORITY), "cpu", 100)
                        .gang(gangs[g]));
            }
        }
        s.node("n", "cpu", cpu + 100 * random.nextInt(3), "memory", memory);
        ClusterSnapshot snapshot = s.snapshot();
        PodInfo pending = Scenario.pending(PENDING_PRIORITY, "cpu", 100 * (2 + random.nextInt(12)),
                "memory", 256 * random.nextInt(10));

        GangSolverOracle oracle = new GangSolverOracle(snapshot, "n", pending, "size " + size + " seed " + seed);
        Assumptions.assumeTrue(oracle.needsRoom());
        Objective optimum = oracle.optimum(60);
        PreemptionDecision decision = Scenario.minimal().decide(snapshot, pending, List.of("n"));
        if (optimum == null) {
            assertThat(decision.outcome()).isNotEqualTo(DecisionOutcome.PREEMPT);
            Tally.collect("infeasible");
            return;
        }
        assertThat(decision.outcome()).as(decision.detail()).isEqualTo(DecisionOutcome.PREEMPT);
        NodeVerdict chosen = decision.chosen().get(0);
        Objective answered = new GangSolverOracle(snapshot, "n", pending, "check").costOf(chosen.victims().victims());
        assertThat(answered).as("a valid set: the pod fits, a broken gang's members here go with it").isNotNull();
        assertThat(answered).as("costed as reported").isEqualTo(chosen.victims().objective());
        assertThat(answered.compareTo(optimum)).as("never better than the optimum " + optimum).isGreaterThanOrEqualTo(0);
        if (chosen.provenOptimal()) {
            assertThat(answered).as("proven: the optimum").isEqualTo(optimum);
        }
        Tally.collect(chosen.provenOptimal() ? "proven" : "unproven",
                answered.victims() > chosen.victims().victims().size() ? "breaks a gang" : "breaks none");
    }
}
