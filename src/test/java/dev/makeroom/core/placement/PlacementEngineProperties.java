package dev.makeroom.core.placement;

import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.filter.FilterVerdict;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The placement engine answers as the scheduler's filters do, on random clusters that exercise every
 * filter it models; and the extender filter's fast path (the node table) agrees with it where both answer.
 */
class PlacementEngineProperties {

    private static final Instant NOW = Instant.parse("2026-11-25T00:00:00Z");

    @Property(tries = 3000)
    void every_node_gets_the_schedulers_first_failing_filter_and_status(@ForAll long seed) {
        PlacementCluster c = PlacementCluster.generate(seed);
        PodPlacement engine = PodPlacement.of(new SnapshotState(c.snapshot(), NOW), c.pending());
        for (NodeInfo node : c.snapshot().nodes()) {
            Placement answer = engine.on(node);
            SchedulerFilterOracle.Answer expected = SchedulerFilterOracle.of(c.snapshot(), c.pending(), node);
            Statistics.label("first failing filter").collect(answer.filter() == null ? "fits" : answer.filter() + " " + answer.verdict());
            assertThat(new SchedulerFilterOracle.Answer(answer.filter(), answer.verdict()))
                    .as("seed %d, %s on %s: %s", seed, c.pending(), node.name(), answer.reason())
                    .isEqualTo(expected);
        }
    }

    @Property(tries = 1000)
    void a_pod_already_bound_is_asked_about_as_if_it_were_not_there(@ForAll long seed) {
        PlacementCluster c = PlacementCluster.generate(seed);
        if (c.snapshot().pods().isEmpty()) {
            return;
        }
        PodInfo bound = c.snapshot().pods().iterator().next();
        PodPlacement engine = PodPlacement.of(new SnapshotState(c.snapshot(), NOW), bound);
        for (NodeInfo node : c.snapshot().nodes()) {
            Placement answer = engine.on(node);
            assertThat(new SchedulerFilterOracle.Answer(answer.filter(), answer.verdict()))
                    .as("seed %d, %s on %s", seed, bound.ref(), node.name())
                    .isEqualTo(SchedulerFilterOracle.of(c.snapshot(), bound, node));
        }
    }

    /** The extender's filter asks only what it adds to the scheduler's own: resources (from the table) and reservations. */
    @Property(tries = 1000)
    void the_extender_filters_fast_path_agrees_with_the_engines_resource_fit(@ForAll long seed) {
        PlacementCluster c = PlacementCluster.generate(seed);
        PodInfo pending = c.pending();
        List<String> names = c.snapshot().nodes().stream().map(NodeInfo::name).toList();
        FilterVerdict fast = new FilterPolicy().filter(c.snapshot(), pending, names, null, NOW);
        PodPlacement engine = PodPlacement.of(new SnapshotState(c.snapshot(), NOW), pending);
        for (NodeInfo node : c.snapshot().nodes()) {
            Placement answer = engine.on(node);
            boolean resourcesShort = answer.filter() == Filter.NODE_RESOURCES_FIT;
            boolean passedResources = answer.filter() == null || answer.filter().ordinal() > Filter.NODE_RESOURCES_FIT.ordinal();
            if (resourcesShort) {
                assertThat(fast.failed().get(node.name())).as("seed %d on %s", seed, node.name()).isEqualTo(answer.reason());
            } else if (passedResources) {
                assertThat(fast.passed()).as("seed %d on %s", seed, node.name()).contains(node.name());
            }
        }
    }
}
