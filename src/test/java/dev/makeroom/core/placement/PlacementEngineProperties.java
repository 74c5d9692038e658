package dev.makeroom.core.placement;

import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.filter.FilterVerdict;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Tally;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The placement engine answers as the scheduler's filters do, on random clusters that exercise every
 * filter it models; and the extender filter refuses where, and only where, the engine's own rules do.
 */
class PlacementEngineProperties {

    private static final Instant NOW = Instant.parse("2026-11-25T00:00:00Z");

    @Property(tries = 3000)
    void every_node_gets_the_schedulers_first_failing_filter_and_status(@ForAll long seed) {
        PlacementCluster c = PlacementCluster.generate(seed);
        PodPlacement engine = PodPlacement.of(new SnapshotState(c.snapshot(), NOW), c.pending());
        for (NodeInfo node : c.snapshot().nodes()) {
            Placement answer = engine.on(node);
            SchedulerFilterOracle.Answer expected = withHold(SchedulerFilterOracle.of(c.snapshot(), c.pending(), node),
                    c.snapshot(), c.pending(), node);
            Tally.label("first failing filter").collect(answer.filter() == null ? "fits" : answer.filter() + " " + answer.verdict());
            assertThat(new SchedulerFilterOracle.Answer(answer.filter(), answer.verdict()))
                    .as("seed %d, %s on %s: %s", seed, c.pending(), node.name(), answer.reason())
                    .isEqualTo(expected);
        }
        Tally.label("first failing filter").coverage(coverage -> {
            coverage.check("NODE_RESOURCES_FIT UNRESOLVABLE").count(n -> n > 0); // 1.34 on: more than the node has
            coverage.check("NODE_RESOURCES_FIT UNSCHEDULABLE").count(n -> n > 0);
            coverage.check("RESERVATION UNRESOLVABLE").count(n -> n > 0);
        });
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
                    .isEqualTo(withHold(SchedulerFilterOracle.of(c.snapshot(), bound, node), c.snapshot(), bound, node));
        }
    }

    /**
     * The extender's filter adds only makeroom's own rules to the scheduler's: asked of the nodes the
     * scheduler's filters passed, it passes those the engine says fit and refuses, as unresolvable and for
     * the same reason, those the engine keeps off for room held for another pod.
     */
    @Property(tries = 1000)
    void the_extender_filter_refuses_what_the_engines_own_rules_refuse_and_nothing_else(@ForAll long seed) {
        PlacementCluster c = PlacementCluster.generate(seed);
        PodInfo pending = c.pending();
        PodPlacement engine = PodPlacement.of(new SnapshotState(c.snapshot(), NOW), pending);
        List<NodeInfo> schedulerPassed = c.snapshot().nodes().stream()
                .filter(n -> engine.on(n).filter() == null || engine.on(n).filter() == Filter.RESERVATION).toList();
        FilterVerdict verdict = new FilterPolicy().filter(c.snapshot(), pending,
                schedulerPassed.stream().map(NodeInfo::name).toList(), null, NOW);
        assertThat(verdict.failed()).isEmpty();
        for (NodeInfo node : schedulerPassed) {
            Placement answer = engine.on(node);
            if (answer.filter() == Filter.RESERVATION) {
                assertThat(verdict.unresolvable().get(node.name())).as("seed %d on %s", seed, node.name())
                        .isEqualTo(answer.reason());
            } else {
                assertThat(verdict.passed()).as("seed %d on %s", seed, node.name()).contains(node.name());
            }
        }
    }

    /**
     * Where every filter of the scheduler passes, makeroom's own hold comes next: room held until after NOW
     * for another pending pod of at least this pod's priority keeps it off, as unresolvable.
     */
    private static SchedulerFilterOracle.Answer withHold(SchedulerFilterOracle.Answer schedulers, ClusterSnapshot cluster,
                                                       PodInfo pod, NodeInfo node) {
        Reservation hold = node.admission().reservations().isEmpty() ? null : node.admission().reservations().get(0);
        if (schedulers.verdict() != Verdict.FITS || hold == null || !hold.until().isAfter(NOW)) {
            return schedulers;
        }
        PodInfo holder = cluster.pods().stream().filter(p -> p.uid().equals(hold.pod().uid())).findFirst().orElse(null);
        boolean held = holder != null && holder.nodeName() == null && !holder.terminating()
                && !holder.uid().equals(pod.uid()) && pod.priority() <= holder.priority();
        return held ? new SchedulerFilterOracle.Answer(Filter.RESERVATION, Verdict.UNRESOLVABLE) : schedulers;
    }
}
