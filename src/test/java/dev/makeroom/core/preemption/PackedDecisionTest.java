package dev.makeroom.core.preemption;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.room.InfeasibleReason;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.Objective;
import dev.makeroom.core.room.SearchStats;
import dev.makeroom.core.room.Strategy;
import dev.makeroom.core.room.TieBreak;
import dev.makeroom.core.room.VictimSet;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the packed columns cannot hold in a char goes to their spill, and comes back: a node with more
 * victims than a char counts, more distinct objectives than a char numbers, PDB violations, and every
 * reason a node may be infeasible for (MinimalSearchProperties round-trips decisions the engine makes).
 */
class PackedDecisionTest {

    private static final int BEYOND_A_CHAR = Character.MAX_VALUE + 2;

    @Test
    void values_beyond_a_char_and_every_reason_unpack_as_made() {
        List<PodInfo> many = new ArrayList<>();
        for (int i = 0; i < BEYOND_A_CHAR; i++) {
            many.add(PodInfo.builder("v" + i).name("v" + i).namespace("ns").nodeName("crowded").build());
        }
        List<NodeVerdict> verdicts = new ArrayList<>();
        verdicts.add(feasible("crowded", many, 3, 0));
        for (InfeasibleReason reason : InfeasibleReason.values()) {
            verdicts.add(new NodeVerdict("n-" + reason, null, reason, "because " + reason, false, false, false,
                    SearchStats.NONE));
        }
        PodInfo one = PodInfo.builder("single").name("single").namespace("ns").nodeName("x").build();
        for (int k = 0; k < BEYOND_A_CHAR; k++) { // each its own objective: the last numbered beyond a char
            verdicts.add(feasible("n" + k, List.of(one), k % 2, k));
        }
        PreemptionDecision decision = new PreemptionDecision(new PodRef("ns", "pending", "u"), DecisionOutcome.PREEMPT,
                "chosen", Strategy.MINIMAL, verdicts, List.of(verdicts.get(verdicts.size() - 1), verdicts.get(0)), 42,
                new SchedulersChoice("crowded", 2, 20, 7_200_000), 3_600_000);

        PreemptionDecision unpacked = PackedDecision.of(decision).unpack();

        // verdict by verdict, naming only the first that differs: the whole decision is too large to print
        assertThat(unpacked.verdicts()).hasSameSizeAs(decision.verdicts());
        for (int i = 0; i < decision.verdicts().size(); i++) {
            assertThat(unpacked.verdicts().get(i).equals(decision.verdicts().get(i)))
                    .as("verdict %d, on %s", i, decision.verdicts().get(i).node()).isTrue();
        }
        assertThat(unpacked.chosen()).extracting(NodeVerdict::node).containsExactly("n" + (BEYOND_A_CHAR - 1), "crowded");
        assertThat(unpacked.equals(decision)).as("the whole decision").isTrue();
        assertThat(unpacked.verdicts().get(0).victims().victims()).hasSize(BEYOND_A_CHAR);
        assertThat(unpacked.verdicts()).extracting(NodeVerdict::reason).containsSubsequence(InfeasibleReason.values());
    }

    private static NodeVerdict feasible(String node, List<PodInfo> victims, int violations, long prioritySum) {
        Objective objective = new Objective(violations, 0, victims.size(), prioritySum, new long[TieBreak.COUNT]);
        return new NodeVerdict(node, new VictimSet(victims, violations, objective), null, null, true, false,
                false, SearchStats.NONE);
    }
}
