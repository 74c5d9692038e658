package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.placement.PlacementSurvey;
import dev.makeroom.core.placement.PodPlacement;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.why.WhyExplanation;
import dev.makeroom.core.room.QueueRules;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The extender's preempt, {@code /debug/simulate} and {@code --why} answer the same for the same pod
 * on the same snapshot, over generated clusters that meet every step of the pipeline: full nodes of
 * fillers of mixed priority, some nodes kept empty by consolidation (or still draining), some pending
 * pods nominated where lower-priority pods terminate. The extender is asked over the candidates the
 * scheduler would offer (the survey's); simulate asks the survey itself; {@code --why}, where it asks
 * preemption as the scheduler would (the pod fits nowhere), prints the same outcome and reason.
 * 400 clusters, seeds 0–399: a failure names its seed, and the same seed builds the same cluster again.
 */
class PipelineAgreementTest {

    private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");
    private static final int CLUSTERS = 400;

    record Generated(ClusterSnapshot snapshot, PodInfo pending) {
    }

    static Generated generate(long seed) {
        Random random = new Random(seed);
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        int nodes = 1 + random.nextInt(5);
        int nominatedTo = random.nextInt(4) == 0 ? random.nextInt(nodes) : -1;
        int pendingPriority = 100 + random.nextInt(3) * 100;
        for (int n = 0; n < nodes; n++) {
            String node = "n" + n;
            int kind = random.nextInt(6); // 0: kept empty, 1: draining, else open
            NodeAdmission admission = kind == 0 ? new NodeAdmission(false, List.of(ConsolidationMark.emptied(NOW.minus(
                    Duration.ofMinutes(3))))) : kind == 1 ? new NodeAdmission(false,
                    List.of(ConsolidationMark.draining(NOW.minusSeconds(40)))) : NodeAdmission.OPEN;
            b.node(node, Map.of(), Resources.of("cpu", 4000, "pods", 20), admission);
            int fillers = kind == 0 ? random.nextInt(2) : 1 + random.nextInt(4);
            for (int i = 0; i < fillers; i++) {
                String name = node + "-p" + i;
                b.pod(PodInfo.builder("uid-" + name).name(name).nodeName(node)
                        .priority(random.nextInt(3) * 100)
                        .requests(Resources.of("cpu", 500 + 500L * random.nextInt(4)))
                        .terminating(n == nominatedTo && random.nextBoolean())
                        .startTime(NOW.minus(Duration.ofMinutes(1 + random.nextInt(500))))
                        .controller(new OwnerRef("ReplicaSet", "rs-" + name, "rs-uid-" + name)).build());
            }
        }
        PodInfo pending = PodInfo.builder("uid-pending").name("pending").priority(pendingPriority)
                .nominatedNodeName(nominatedTo >= 0 ? "n" + nominatedTo : null)
                .requests(Resources.of("cpu", 1000 + 500L * random.nextInt(6))).build();
        return new Generated(b.pod(pending).build(), pending);
    }

    @Test
    void preempt_and_simulate_decide_the_same_for_every_generated_cluster() {
        PreemptionPipeline pipeline = PreemptionPipeline.of(new PreemptionEngine(PreemptionSettings.DEFAULTS, () -> 0L));
        int released = 0;
        int inFlight = 0;
        int preempted = 0;
        for (long seed = 0; seed < CLUSTERS; seed++) {
            Generated g = generate(seed);
            SnapshotState state = new SnapshotState(g.snapshot(), NOW);
            List<String> offered = PlacementSurvey.of(PodPlacement.of(state, g.pending())).preemptionCandidates();
            PreemptionDecision verb = pipeline.decide(new PreemptionPipeline.Request(g.snapshot(), g.pending(),
                    Candidate.onNodes(offered), QueueRules.off(), NOW)).decision();
            PreemptionDecision simulated = PendingPodSurvey.ask(pipeline, state, g.snapshot(), g.pending(),
                    new PendingPodSurvey.Settings(Optional.empty(), QueueRules.off(), PendingPodSurvey.Decide.ALWAYS))
                    .decision().orElseThrow();
            assertThat(simulated.outcome()).as("seed %d", seed).isEqualTo(verb.outcome());
            assertThat(simulated.detail()).as("seed %d", seed).isEqualTo(verb.detail());
            assertThat(chosen(simulated)).as("seed %d", seed).isEqualTo(chosen(verb));
            PlacementSurvey where = PlacementSurvey.of(PodPlacement.of(state, g.pending()));
            if (where.fits().isEmpty() && !offered.isEmpty()) { // where --why asks preemption, as the scheduler would
                assertThat(why(pipeline, state, g)).as("seed %d", seed)
                        .contains("preemption: " + verb.outcome() + " (" + verb.detail() + ")");
            }
            released += verb.outcome() == DecisionOutcome.RELEASE ? 1 : 0;
            inFlight += verb.detail().contains("is in flight") ? 1 : 0;
            preempted += verb.outcome() == DecisionOutcome.PREEMPT ? 1 : 0;
        }
        // the generator meets every step, or the agreement says little
        assertThat(released).as("clusters where held room is given back").isGreaterThan(CLUSTERS / 20);
        assertThat(inFlight).as("clusters with a preemption in flight").isGreaterThan(CLUSTERS / 40);
        assertThat(preempted).as("clusters where victims are chosen").isGreaterThan(CLUSTERS / 10);
    }

    private static String why(PreemptionPipeline pipeline, SnapshotState state, Generated g) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        WhyExplanation.write(pipeline, state, g.snapshot(), g.pending(), new PendingPodSurvey.Settings(Optional.empty(),
                QueueRules.off(), PendingPodSurvey.Decide.AS_THE_SCHEDULER_WOULD), new PrintStream(text, true, StandardCharsets.UTF_8));
        return text.toString(StandardCharsets.UTF_8);
    }

    private static List<String> chosen(PreemptionDecision decision) {
        return decision.chosen().stream().map(v -> v.node() + ":" + v.victims().victims().stream()
                .map(PodInfo::name).sorted().toList()).toList();
    }
}
