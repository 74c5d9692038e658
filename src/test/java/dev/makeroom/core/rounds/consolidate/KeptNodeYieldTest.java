package dev.makeroom.core.rounds.consolidate;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.rounds.NodeDrain;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.Rounds;
import dev.makeroom.core.rounds.SettingsBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node the consolidate policy keeps out of service goes back at once for a pod waiting for it (it
 * would fit there, untainted, and fits nowhere else); not for one that fits elsewhere, nor for a pod
 * of a scheduler that does not use makeroom; two kept nodes do not both go back for one pod.
 */
class KeptNodeYieldTest {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
    private static final RescheduleSettings SETTINGS = SettingsBuilder
            .limits(new RescheduleSettings.MoveLimits(10, 10, 20, 10, 50))
            .consolidate(new ConsolidateSettings(true, Map.of("cpu", 30), Map.of("cpu", 80),
                    Duration.ofMinutes(15), 1, Duration.ofMinutes(10))).build();
    private static final NodeAdmission EMPTIED = new NodeAdmission(false,
            List.of(ConsolidationMark.emptied(NOW.minus(Duration.ofMinutes(1)))));

    private static PodInfo.Builder pod(String name, String node, long cpu) {
        return PodInfo.builder(name).name(name).nodeName(node).requests(Resources.of("cpu", cpu))
                .startTime(Instant.parse("2026-11-01T00:00:00Z"))
                .controller(new OwnerRef("ReplicaSet", name, "rs-" + name));
    }

    private static PodInfo.Builder waiting(String name, long cpu) {
        return pod(name, null, cpu).unschedulableSince(NOW.minusSeconds(30));
    }

    /** a with 2 cpu of 4 used, and {@code kept} nodes emptied a minute ago (a DaemonSet agent each). */
    private static ClusterSnapshot.Builder cluster(String... kept) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder()
                .node("a", Map.of(), Resources.of("cpu", 4000, "pods", 20), NodeAdmission.OPEN)
                .pod(pod("base", "a", 2000).build());
        for (String name : kept) {
            b.node(name, Map.of(), Resources.of("cpu", 4000, "pods", 20), EMPTIED)
                    .pod(pod("agent-" + name, name, 100).controller(new OwnerRef("DaemonSet", "agent", "ds")).build());
        }
        return b;
    }

    private static List<NodeDrain> drains(ClusterSnapshot snapshot) {
        return Rounds.plan(snapshot, SETTINGS, List.of(), NOW).drains();
    }

    @Test
    void an_emptied_node_goes_back_into_service_for_a_pod_that_fits_there_alone() {
        List<NodeDrain> drains = drains(cluster("kept").pod(waiting("big", 3000).build()).build());
        assertThat(drains).singleElement().satisfies(d -> {
            assertThat(d.node()).isEqualTo("kept");
            assertThat(d.step()).isEqualTo(NodeDrain.Step.RELEASE);
            assertThat(d.reason()).startsWith("default/big waits for a node and fits on this one alone");
        });
    }

    @Test
    void it_stays_kept_for_a_pod_that_fits_elsewhere_or_that_makeroom_does_not_schedule() {
        assertThat(drains(cluster("kept").pod(waiting("small", 1000).build()).build())).isEmpty();
        assertThat(drains(cluster("kept").pod(waiting("big", 3000).schedulerName("other").build()).build())).isEmpty();
        assertThat(drains(cluster("kept").pod(pod("bound", "a", 1000).build()).build())).isEmpty();
    }

    @Test
    void one_waiting_pod_brings_back_one_kept_node() {
        List<NodeDrain> drains = drains(cluster("kept-1", "kept-2").pod(waiting("big", 3000).build()).build());
        assertThat(drains).extracting(NodeDrain::node).containsExactly("kept-1");
        List<NodeDrain> two = drains(cluster("kept-1", "kept-2").pod(waiting("big", 3000).build())
                .pod(waiting("large", 3000).build()).build());
        assertThat(two).extracting(NodeDrain::step).containsExactly(NodeDrain.Step.RELEASE, NodeDrain.Step.RELEASE);
    }

    @Test
    void a_drain_a_waiting_pod_needs_is_abandoned() {
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .node("a", Map.of(), Resources.of("cpu", 4000, "pods", 20), NodeAdmission.OPEN)
                .node("low", Map.of(), Resources.of("cpu", 4000, "pods", 20),
                        new NodeAdmission(false, List.of(ConsolidationMark.draining(NOW.minusSeconds(60)))))
                .pod(pod("base", "a", 2000).build()).pod(pod("web", "low", 500).build())
                .pod(waiting("big", 3000).build()).build();
        assertThat(drains(snapshot)).singleElement().satisfies(d -> {
            assertThat(d.step()).isEqualTo(NodeDrain.Step.ABANDON);
            assertThat(d.reason()).startsWith("default/big waits for a node");
        });
    }
}
