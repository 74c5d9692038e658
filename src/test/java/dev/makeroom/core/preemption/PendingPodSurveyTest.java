package dev.makeroom.core.preemption;

import dev.makeroom.cluster.SnapshotFileClusterView;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.core.queue.QueueOverMax;
import dev.makeroom.core.room.QueueRules;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The one survey-then-preempt question, in each of its callers' settings, on the demo cluster. */
class PendingPodSurveyTest {

    private final ClusterSnapshot demo = new SnapshotFileClusterView(Path.of("examples/demo-cluster.yaml"), null).snapshot();
    private final PreemptionEngine engine = new PreemptionEngine(PreemptionSettings.DEFAULTS, System::nanoTime);

    private PendingPodSurvey.Answer ask(PodInfo pod, Optional<QueueOverMax> fence, PendingPodSurvey.Decide decide) {
        return PendingPodSurvey.ask(PreemptionPipeline.of(engine), new SnapshotState(demo, Instant.now()), demo, pod,
                new PendingPodSurvey.Settings(fence, QueueRules.off(), decide));
    }

    private PodInfo pod(String ref) {
        return demo.pods().stream().filter(p -> p.ref().toString().equals(ref)).findFirst().orElseThrow();
    }

    @Test
    void a_pod_that_fits_nowhere_is_surveyed_then_preempts_in_every_setting() {
        for (PendingPodSurvey.Decide decide : PendingPodSurvey.Decide.values()) {
            PendingPodSurvey.Answer answer = ask(pod("default/critical-job"), Optional.empty(), decide);
            assertThat(answer.where().fits()).as(decide.name()).isEmpty();
            assertThat(answer.where().preemptionCandidates()).as(decide.name()).hasSize(4);
            assertThat(answer.placesByPreemption()).as(decide.name()).isTrue();
            assertThat(answer.decision().orElseThrow().chosen().get(0).node()).isEqualTo("node-a");
        }
    }

    @Test
    void a_pod_that_fits_is_decided_only_where_the_settings_ask() {
        PodInfo small = pod("default/critical-job").toBuilder().uid("small").name("small")
                .requests(dev.makeroom.core.model.Resources.of("cpu", 500)).build();
        assertThat(ask(small, Optional.empty(), PendingPodSurvey.Decide.AS_THE_SCHEDULER_WOULD).where().fits()).containsExactly("node-d");
        assertThat(ask(small, Optional.empty(), PendingPodSurvey.Decide.AS_THE_SCHEDULER_WOULD).decision()).isEmpty();
        assertThat(ask(small, Optional.empty(), PendingPodSurvey.Decide.ALWAYS).decision()).isPresent();
    }

    @Test
    void a_fence_refuses_the_nodes_that_would_otherwise_take_the_pod_and_no_eviction_helps_there() {
        PodInfo small = pod("default/critical-job").toBuilder().uid("small").name("small")
                .requests(dev.makeroom.core.model.Resources.of("cpu", 500)).build();
        QueueOverMax over = new QueueOverMax("root.batch", "cpu", 3000, 500, 3000);
        PendingPodSurvey.Answer fenced = ask(small, Optional.of(over), PendingPodSurvey.Decide.ALWAYS);
        assertThat(fenced.where().fits()).isEmpty();
        assertThat(fenced.where().unresolvable()).containsOnlyKeys("node-d")
                .containsEntry("node-d", "queue root.batch would exceed its max cpu (uses 3000, pod asks 500, max 3000)");
        assertThat(fenced.where().preemptionCandidates()).doesNotContain("node-d");
        assertThat(fenced.decision()).isPresent();
    }
}
