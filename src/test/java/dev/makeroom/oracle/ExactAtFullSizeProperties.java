package dev.makeroom.oracle;

import dev.makeroom.bench.FullSizeNodes;
import dev.makeroom.core.preemption.AnswerMode;
import dev.makeroom.core.preemption.PreemptionEngine;
import dev.makeroom.core.preemption.PreemptionSettings;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.OptimalityGap;
import dev.makeroom.core.room.PdbMode;
import dev.makeroom.core.room.Strategy;
import org.junit.jupiter.api.Test;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.IntRange;
import dev.makeroom.support.property.LongRange;
import dev.makeroom.support.ExternalTool;
import org.junit.jupiter.api.BeforeEach;
import dev.makeroom.support.property.Tally;

import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exact search on full-size nodes (40 to 110 candidates, the shapes of {@link FullSizeNodes})
 * against {@link SolverOracle}, an integer programming solver that shares no code with it: every
 * answer is a valid set, never worse than the kube-scheduler's own, the optimum whenever the search
 * says it is proven, and when it is not, what the decision says is left open is true of the
 * optimum. Needs {@code cbc} (Debian's {@code coinor-cbc}; CI installs it, and under CI, or with
 * {@code MAKEROOM_ORACLE=required}, a missing solver fails the properties; elsewhere they are skipped).
 */
class ExactAtFullSizeProperties {

    /** Skips the properties where {@code cbc} is missing, unless it is required (then they fail on it). */
    static void solverNeeded() {
        if ("required".equals(System.getenv("MAKEROOM_ORACLE")) && !Cbc.installed()) {
            throw new IllegalStateException("cbc (Debian's coinor-cbc) is not installed, and MAKEROOM_ORACLE=required");
        }
        ExternalTool.needed(Cbc.installed(), "cbc", "Debian's coinor-cbc");
    }

    @BeforeEach
    void solver() {
        solverNeeded();
    }

    /** With a generous budget: most answers proven, and each proven one the optimum. */
    @Property(tries = 60)
    void a_proven_answer_is_the_optimum(@ForAll FullSizeNodes.Shape shape, @ForAll @IntRange(min = 40, max = 110) int size,
                                        @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        NodeVerdict verdict = checkAgainstOracle(FullSizeNodes.generate(shape, size, seed),
                engine(Duration.ofSeconds(5), System::nanoTime));
        Tally.collect(verdict == null ? "infeasible" : verdict.provenOptimal() ? "proven" : "unproven");
    }

    /**
     * With the search stopped early (a clock that jumps a millisecond per reading: a fixed number of
     * states, whatever the machine): valid, no worse than the scheduler's, and an honest gap.
     */
    @Property(tries = 60)
    void an_unproven_answer_says_truly_what_is_open(@ForAll FullSizeNodes.Shape shape,
                                                    @ForAll @IntRange(min = 40, max = 110) int size,
                                                    @ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        long[] now = {0};
        NodeVerdict verdict = checkAgainstOracle(FullSizeNodes.generate(shape, size, seed),
                engine(Duration.ofMillis(2), () -> now[0] += 1_000_000L));
        Tally.collect(verdict == null ? "infeasible" : verdict.provenOptimal() ? "proven" : "unproven");
    }

    /**
     * A node whose QoS stage CBC's preprocessing called infeasible although the earlier stages' optimum
     * is a solution (a sample this property once drew): the oracle must still answer it.
     */
    @Test
    void the_oracle_answers_a_node_cbc_preprocessing_once_called_infeasible() {
        NodeVerdict verdict = checkAgainstOracle(FullSizeNodes.generate(FullSizeNodes.Shape.MIXED, 41, 456088),
                engine(Duration.ofSeconds(5), System::nanoTime));
        assertThat(verdict).isNotNull();
    }

    /** Checks one node; answers makeroom's verdict, or null when no set works. */
    private static NodeVerdict checkAgainstOracle(FullSizeNodes.Node node, PreemptionEngine engine) {
        SolverOracle oracle = new SolverOracle(node);
        long[] optimum = oracle.optimum(60);
        NodeVerdict verdict = ExactnessSurvey.verdict(engine, node);
        if (optimum == null) {
            assertThat(verdict.isFeasible()).as("feasible").isFalse();
            return null;
        }
        assertThat(verdict.isFeasible()).as("feasible").isTrue();
        Set<Integer> victims = ExactnessSurvey.victims(verdict);
        assertThat(victims).allMatch(oracle::mayEvict);
        assertThat(oracle.fitsWithout(victims)).as("the pending pod fits").isTrue();
        long[] ours = oracle.cost(victims);
        long[] schedulers = oracle.cost(ExactnessSurvey.victims(ExactnessSurvey.verdict(
                ExactnessSurvey.engine(Strategy.KUBE_DEFAULT), node)));
        assertThat(SolverOracle.compare(ours, schedulers)).as("no worse than the scheduler's").isLessThanOrEqualTo(0);
        assertThat(SolverOracle.compare(ours, optimum)).as("no better than the optimum").isGreaterThanOrEqualTo(0);
        if (verdict.provenOptimal()) {
            assertThat(ours).as("proven: the optimum").containsExactly(optimum);
        } else {
            assertHonest(verdict.stats().gap(), ours, optimum);
        }
        return verdict;
    }

    /** The gap's part is the first the optimum may differ on, and its bound holds for the optimum. */
    private static void assertHonest(OptimalityGap gap, long[] ours, long[] optimum) {
        assertThat(gap).as("an unproven answer says what is open").isNotNull();
        int part = switch (gap.part()) {
            case PDB_VIOLATIONS -> SolverOracle.VIOLATIONS;
            case HIGHEST_PRIORITY -> SolverOracle.HIGHEST;
            case VICTIMS, TIE_BREAKS -> SolverOracle.COUNT;
            case WORK_LOST -> throw new AssertionError("the default objective weighs work only as a tie-break: " + gap);
        };
        for (int earlier = 0; earlier < part; earlier++) {
            assertThat(optimum[earlier]).as("proven part %d", earlier).isEqualTo(ours[earlier]);
        }
        assertThat(gap.found()).isEqualTo(ours[part]);
        if (gap.part() == OptimalityGap.Part.TIE_BREAKS) {
            assertThat(optimum[SolverOracle.COUNT]).as("proven count").isEqualTo(ours[SolverOracle.COUNT]);
        } else {
            assertThat(gap.atLeast()).as("bound").isLessThanOrEqualTo(optimum[part]).isLessThan(gap.found());
        }
        Tally.label("open part").collect(gap.part());
    }

    private static PreemptionEngine engine(Duration budget, java.util.function.LongSupplier clock) {
        return new PreemptionEngine(new PreemptionSettings(Strategy.MINIMAL, AnswerMode.ALL, PdbMode.PREFER, budget),
                clock, java.time.InstantSource.fixed(FullSizeNodes.PAST_HORIZON));
    }
}
