package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.room.QueueRules;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pipeline's own steps: room makeroom keeps idle goes back before anyone is evicted, and a
 * preemption in flight is read from the cluster, so a replica that never answered it (or restarted)
 * sees it too.
 */
class PreemptionPipelineTest {

    private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");
    private static final PreemptionEngine ENGINE = new PreemptionEngine(PreemptionSettings.DEFAULTS, System::nanoTime);

    private static PodInfo.Builder filler(String name, String node, long cpu) {
        return PodInfo.builder("uid-" + name).name(name).nodeName(node).requests(Resources.of("cpu", cpu))
                .startTime(Instant.parse("2026-11-01T00:00:00Z")).controller(new OwnerRef("ReplicaSet", name, "rs-" + name));
    }

    private static final PodInfo PENDING = PodInfo.builder("uid-big").name("big").priority(1000)
            .requests(Resources.of("cpu", 3500)).build();
    /** The same pod after the scheduler nominated it to node a. */
    private static final PodInfo NOMINATED = PENDING.toBuilder().nominatedNodeName("a").build();

    /** a full of priority-0 fillers (two of 2 cpu), and a node "kept" carrying {@code mark} (none: open) with an agent. */
    private static ClusterSnapshot.Builder cluster(NodeAdmission kept) {
        return ClusterSnapshot.builder()
                .node("a", Map.of(), Resources.of("cpu", 4000, "pods", 20), NodeAdmission.OPEN)
                .pod(filler("f1", "a", 2000).build())
                .pod(filler("f2", "a", 2000).build())
                .node("kept", Map.of(), Resources.of("cpu", 4000, "pods", 20), kept)
                .pod(filler("agent", "kept", 100).controller(new OwnerRef("DaemonSet", "agent", "ds")).build());
    }

    private static PreemptionPipeline.Plan decide(ClusterSnapshot snapshot, PodInfo pod, PreemptionPipeline pipeline) {
        return pipeline.decide(new PreemptionPipeline.Request(snapshot, pod, Candidate.onNodes(List.of("a")),
                QueueRules.off(), NOW));
    }

    @Test
    void a_node_kept_empty_that_the_pod_fits_on_is_released_and_no_one_is_evicted() {
        ClusterSnapshot snapshot = cluster(new NodeAdmission(false,
                List.of(ConsolidationMark.emptied(NOW.minus(Duration.ofMinutes(2)))))).build();
        PreemptionPipeline.Plan plan = decide(snapshot, PENDING, PreemptionPipeline.of(ENGINE));
        assertThat(plan.decision().outcome()).isEqualTo(DecisionOutcome.RELEASE);
        assertThat(plan.decision().chosen()).isEmpty();
        assertThat(plan.decision().detail()).contains("node kept is kept empty");
        assertThat(plan.release()).hasValueSatisfying(r -> {
            assertThat(r.node()).isEqualTo("kept");
            assertThat(r.pod()).isEqualTo(PENDING.ref());
        });
    }

    @Test
    void two_pods_asked_about_at_once_are_given_two_kept_nodes() {
        NodeAdmission emptied = new NodeAdmission(false, List.of(ConsolidationMark.emptied(NOW.minusSeconds(90))));
        ClusterSnapshot snapshot = cluster(emptied)
                .node("kept-2", Map.of(), Resources.of("cpu", 4000, "pods", 20), emptied).build();
        Map<String, PodRef> givenBack = new HashMap<>();
        HeldRooms held = new HeldRooms() {
            @Override
            public void release(HeldRoomRelease release) {
                givenBack.put(release.node(), release.pod());
            }

            @Override
            public Map<String, PodRef> givenBack() {
                return Map.copyOf(givenBack);
            }
        };
        PreemptionPipeline pipeline = new PreemptionPipeline(ENGINE, new PreemptionsInFlight(), held, System::nanoTime);
        PodInfo other = PodInfo.builder("uid-other").name("other").priority(1000).requests(Resources.of("cpu", 3500)).build();
        HeldRoomRelease first = decide(snapshot, PENDING, pipeline).release().orElseThrow();
        held.release(first); // as the extender's preempt does; the view still shows the node kept
        assertThat(first.node()).isEqualTo("kept");
        assertThat(decide(snapshot, other, pipeline).release()).map(HeldRoomRelease::node).hasValue("kept-2");
        assertThat(decide(snapshot, PENDING, pipeline).release()).as("asked again, the same pod keeps its node")
                .map(HeldRoomRelease::node).hasValue("kept");
    }

    @Test
    void victims_are_chosen_when_no_kept_node_would_do() {
        // an open node: the scheduler saw it already; a node still draining is the rescheduler's
        for (NodeAdmission admission : List.of(NodeAdmission.OPEN,
                new NodeAdmission(false, List.of(ConsolidationMark.draining(NOW.minusSeconds(30)))))) {
            PreemptionPipeline.Plan plan = decide(cluster(admission).build(), PENDING, PreemptionPipeline.of(ENGINE));
            assertThat(plan.decision().outcome()).as("%s", admission).isEqualTo(DecisionOutcome.PREEMPT);
            assertThat(plan.release()).isEmpty();
        }
        // kept empty, but too small for the pod
        PodInfo huge = PodInfo.builder("uid-huge").name("huge").priority(1000).requests(Resources.of("cpu", 3950)).build();
        PreemptionPipeline.Plan plan = decide(cluster(new NodeAdmission(false,
                List.of(ConsolidationMark.emptied(NOW)))).build(), huge, PreemptionPipeline.of(ENGINE));
        assertThat(plan.decision().outcome()).isEqualTo(DecisionOutcome.PREEMPT);
        assertThat(plan.release()).isEmpty();
    }

    @Test
    void a_nominated_pod_whose_lower_priority_neighbours_are_terminating_is_in_flight_for_any_replica() {
        ClusterSnapshot going = ClusterSnapshot.builder()
                .node("a", Map.of(), Resources.of("cpu", 4000, "pods", 20), NodeAdmission.OPEN)
                .pod(filler("f1", "a", 2000).terminating(true).build())
                .pod(filler("f2", "a", 2000).build())
                .pod(NOMINATED).build();
        // a pipeline that never answered for this pod: a second replica, or this one restarted
        PreemptionPipeline.Plan plan = decide(going, NOMINATED, PreemptionPipeline.of(ENGINE));
        assertThat(plan.decision().outcome()).isEqualTo(DecisionOutcome.NOT_ELIGIBLE);
        assertThat(plan.decision().detail()).isEqualTo("its preemption on a is in flight: waiting for default/f1 to terminate");
        // the body the scheduler sends may predate its nomination: the view's pod says it
        assertThat(decide(going, PENDING, PreemptionPipeline.of(ENGINE)).decision().outcome())
                .isEqualTo(DecisionOutcome.NOT_ELIGIBLE);
    }

    @Test
    void terminating_pods_of_higher_priority_or_no_nomination_leave_the_pod_free_to_preempt() {
        ClusterSnapshot higherGoing = ClusterSnapshot.builder()
                .node("a", Map.of(), Resources.of("cpu", 4000, "pods", 20), NodeAdmission.OPEN)
                .pod(filler("f1", "a", 2000).priority(5000).terminating(true).build())
                .pod(filler("f2", "a", 2000).build()).build();
        assertThat(decide(higherGoing, NOMINATED, PreemptionPipeline.of(ENGINE)).decision().outcome())
                .isNotEqualTo(DecisionOutcome.NOT_ELIGIBLE);
        ClusterSnapshot noneGoing = cluster(NodeAdmission.OPEN).build();
        assertThat(decide(noneGoing, NOMINATED, PreemptionPipeline.of(ENGINE)).decision().outcome())
                .isEqualTo(DecisionOutcome.PREEMPT);
    }
}
