package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.placement.Filter;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /**
     * A pod whose required affinity asks for an {@code app=db} pod in its zone keeps the last one there:
     * the db may leave the zone only while another db stays in it.
     */
    @Test
    void the_last_pod_another_pods_affinity_needs_in_its_zone_stays_in_the_zone() {
        PodInfo db = PodInfo.builder("db-1").name("db-1").namespace("shop").nodeName("a-1").labels(Map.of("app", "db"))
                .requests(Resources.of("cpu", 500)).build();
        PodInfo web = PodInfo.builder("web-1").name("web-1").namespace("shop").nodeName("a-1")
                .requests(Resources.of("cpu", 500)).constraints(new SchedulingConstraints(List.of(new PodAffinityTerm(
                        LabelSelector.matching(Map.of("app", "db")), Set.of(), false, "zone")), List.of(), List.of(), List.of()))
                .build();
        ClusterSnapshot.Builder zones = ClusterSnapshot.builder()
                .node("a-1", Map.of("zone", "a"), Resources.of("cpu", 4000, "pods", 10))
                .node("a-2", Map.of("zone", "a"), Resources.of("cpu", 4000, "pods", 10))
                .node("b-1", Map.of("zone", "b"), Resources.of("cpu", 4000, "pods", 10))
                .pod(db).pod(web);
        ClusterSnapshot alone = zones.build();
        PlannedCluster planned = new PlannedCluster(alone, NOW);

        assertThat(planned.landing(db, alone.node("a-2"))).as("within the zone").isEqualTo(Landing.LANDS);
        assertThat(planned.landing(db, alone.node("b-1"))).isInstanceOfSatisfying(Landing.Refused.class, refused -> {
            assertThat(refused.why()).isEqualTo(Landing.Why.LEAVES_OTHERS_WORSE);
            assertThat(refused.text()).contains("shop/web-1");
        });

        ClusterSnapshot twoDbs = zones.pod(PodInfo.builder("db-2").name("db-2").namespace("shop").nodeName("a-2")
                .labels(Map.of("app", "db")).requests(Resources.of("cpu", 500)).build()).build();
        assertThat(new PlannedCluster(twoDbs, NOW).landing(db, twoDbs.node("b-1"))).as("another db stays in zone a")
                .isEqualTo(Landing.LANDS);
    }
}
