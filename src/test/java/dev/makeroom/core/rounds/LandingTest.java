package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.placement.Filter;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A moved pod's landing, as a typed verdict: where it may go, and the kind of each refusal. */
class LandingTest {

    private static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    private final PodInfo moved = PodInfo.builder("web-1").name("web-1").namespace("shop").nodeName("from")
            .requests(Resources.of("cpu", 2000)).controller(new OwnerRef("ReplicaSet", "web", "rs-web")).build();

    private final ClusterSnapshot cluster = ClusterSnapshot.builder()
            .node("from", Map.of(), Resources.of("cpu", 4000, "pods", 10))
            .node("roomy", Map.of(), Resources.of("cpu", 4000, "pods", 10))
            .node("full", Map.of(), Resources.of("cpu", 1000, "pods", 10))
            .node("cordoned", Map.of(), Resources.of("cpu", 4000, "pods", 10), new NodeAdmission(true, List.of()))
            .pod(moved).build();

    private Landing landing(String node) {
        return new PlannedCluster(cluster, NOW).landing(moved, cluster.node(node));
    }

    @Test
    void each_refusal_says_its_kind_and_a_filter_names_itself() {
        assertThat(landing("roomy")).isEqualTo(Landing.LANDS);
        assertThat(landing("roomy").lands()).isTrue();
        assertThat(landing("roomy").text()).isEmpty();

        Landing full = landing("full");
        assertThat(full.lands()).isFalse();
        assertThat(full).isInstanceOfSatisfying(Landing.Refused.class, refused -> {
            assertThat(refused.why()).isEqualTo(Landing.Why.FILTER);
            assertThat(refused.filter()).isEqualTo(Filter.NODE_RESOURCES_FIT);
            assertThat(refused.text()).isEqualTo("Insufficient cpu");
        });

        assertThat(landing("cordoned")).isInstanceOfSatisfying(Landing.Refused.class, refused -> {
            assertThat(refused.why()).isEqualTo(Landing.Why.CORDONED);
            assertThat(refused.filter()).isNull();
        });
    }
}
