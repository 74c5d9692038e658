package dev.makeroom.core.rounds.consolidate;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.NodeDrain;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.Rounds;
import dev.makeroom.core.rounds.SettingsBuilder;
import dev.makeroom.core.rounds.SkipCategory;
import dev.makeroom.core.rounds.consolidate.ConsolidateSettings;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Consolidation never splits a gang: a node holding a member is left alone, unless the document lets
 * gangs move whole; then every running member moves, wherever it runs, each landing proven, and all
 * of them go in one round or none does.
 */
class ConsolidateGangsTest {

    private static final Instant NOW = Instant.parse("2026-11-28T12:00:00Z");
    private static final RescheduleSettings.MoveLimits LIMITS = new RescheduleSettings.MoveLimits(10, 10, 20, 10, 50);
    private static final Gang TRAINING = new Gang("default", "coscheduling", "train", Gang.EVERY_MEMBER);

    private static RescheduleSettings settings(boolean moveWholeGangs, RescheduleSettings.MoveLimits limits) {
        return SettingsBuilder.limits(limits).consolidate(new ConsolidateSettings(true, Map.of("cpu", 30),
                Map.of("cpu", 80), Duration.ofMinutes(15), 1, Duration.ofMinutes(10), moveWholeGangs)).build();
    }

    private static PodInfo.Builder pod(String name, String node, long cpu) {
        String app = name.replaceAll("-\\d+$", "");
        return PodInfo.builder(name).name(name).nodeName(node).requests(Resources.of("cpu", cpu))
                .labels(Map.of("app", app)).startTime(Instant.parse("2026-11-01T00:00:00Z"))
                .controller(new OwnerRef("Job", name, "job-" + name));
    }

    /** low (20%) holds web-1 and worker-0; worker-1 runs on mid (45%), beyond the threshold; a and b take pods. */
    private static ClusterSnapshot cluster() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (String node : List.of("a", "b", "low", "mid")) {
            b.node(node, Map.of(), Resources.of("cpu", 4000, "pods", 20));
        }
        return b.pod(pod("base-1", "a", 2000).build())
                .pod(pod("base-2", "b", 2400).build())
                .pod(pod("base-3", "mid", 1500).build())
                .pod(pod("web-1", "low", 500).build())
                .pod(pod("worker-0", "low", 300).gang(TRAINING).build())
                .pod(pod("worker-1", "mid", 300).gang(TRAINING).build())
                .build();
    }

    private static ReschedulePlan plan(RescheduleSettings settings) {
        return Rounds.plan(cluster(), settings, List.of(), NOW);
    }

    @Test
    void by_default_a_node_holding_a_gang_member_is_not_emptied() {
        ReschedulePlan plan = plan(settings(false, LIMITS));
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.drains()).singleElement().satisfies(d -> {
            assertThat(d.node()).isEqualTo("low");
            assertThat(d.step()).isEqualTo(NodeDrain.Step.NOT_STARTED);
            assertThat(d.reason()).contains("worker-0").contains("gang");
        });
    }

    @Test
    void when_gangs_may_move_whole_the_whole_gang_moves_and_every_member_lands_off_the_node_emptied_and_off_its_own() {
        ReschedulePlan plan = plan(settings(true, LIMITS));
        assertThat(plan.drains()).singleElement().satisfies(d -> {
            assertThat(d.step()).isEqualTo(NodeDrain.Step.START);
            assertThat(d.reason()).contains("the 1 other members of their gangs");
        });
        assertThat(plan.moves()).extracting(m -> m.pod().name()).containsExactlyInAnyOrder("web-1", "worker-0", "worker-1");
        Move companion = plan.moves().stream().filter(m -> m.pod().name().equals("worker-1")).findFirst().orElseThrow();
        assertThat(companion.from()).isEqualTo("mid");
        assertThat(companion.reason()).contains("its gang train moves whole");
        assertThat(plan.moves()).allSatisfy(m -> assertThat(m.to()).isNotIn("low", m.from()));
        // each landing, with the ones before it, leaves its node at or under the 80% ceiling
        Map<String, Long> added = new java.util.HashMap<>();
        for (Move m : plan.moves()) {
            long cpu = cluster().pod(m.pod().uid()).requests().get("cpu");
            added.merge(m.to(), cpu, Long::sum);
        }
        added.forEach((node, cpu) -> assertThat(cluster().node(node).requested().get("cpu") + cpu)
                .as(node).isLessThanOrEqualTo(3200));
    }

    @Test
    void a_gang_the_limits_cannot_take_together_waits_whole_while_the_other_pods_go() {
        // one eviction a round: worker-0 and worker-1 together would pass it
        ReschedulePlan plan = plan(settings(true, new RescheduleSettings.MoveLimits(1, 10, 20, 10, 50)));
        assertThat(plan.moves()).extracting(m -> m.pod().name()).containsExactly("web-1");
        assertThat(plan.skipped()).filteredOn(s -> s.pod().name().startsWith("worker"))
                .hasSize(2).allSatisfy(s -> {
                    assertThat(s.category()).isEqualTo(SkipCategory.LIMIT);
                    assertThat(s.reason()).contains("its gang moves whole");
                });
    }

    @Test
    void a_gang_whose_member_elsewhere_lands_nowhere_keeps_the_node_and_nothing_moves() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (String node : List.of("a", "low", "mid")) {
            b.node(node, Map.of(), Resources.of("cpu", 4000, "pods", 20));
        }
        // worker-1 would take a past the 80% ceiling, and mid is its own node: it lands nowhere else
        ClusterSnapshot snapshot = b.pod(pod("base-1", "a", 2000).build())
                .pod(pod("base-3", "mid", 1500).build())
                .pod(pod("web-1", "low", 500).build())
                .pod(pod("worker-0", "low", 300).gang(TRAINING).build())
                .pod(pod("worker-1", "mid", 1300).gang(TRAINING).build())
                .build();
        ReschedulePlan plan = Rounds.plan(snapshot, settings(true, LIMITS), List.of(), NOW);
        assertThat(plan.moves()).isEmpty();
        assertThat(plan.drains()).singleElement().satisfies(d -> {
            assertThat(d.step()).isEqualTo(NodeDrain.Step.NOT_STARTED);
            assertThat(d.reason()).contains("worker-1").contains("lands on no other node");
        });
    }
}
