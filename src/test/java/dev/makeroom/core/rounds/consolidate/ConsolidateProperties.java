package dev.makeroom.core.rounds.consolidate;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ConsolidationMark;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.placement.SchedulerFilterOracle;
import dev.makeroom.core.placement.Verdict;
import dev.makeroom.core.rounds.MovableCluster;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.NodeDrain;
import dev.makeroom.core.rounds.ReschedulePlan;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.Rounds;
import dev.makeroom.core.rounds.SettingsBuilder;
import dev.makeroom.core.rounds.consolidate.ConsolidateSettings;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Tally;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The consolidate policy on random clusters ({@link MovableCluster}), judged by oracles written here:
 * a node is started only with a landing for every pod that must leave it, each landing where the
 * scheduler's filters pass given the ones before, on a node that runs pods already and stays under the
 * ceiling; the round's moves are among those landings. Round after round, with the taint written and
 * removed as the rescheduler would, the nodes with pods never grow in number, every drain ends emptied
 * (the node kept tainted, with only its DaemonSet and static pods) or abandoned (the taint gone), and
 * the rounds come to rest.
 */
class ConsolidateProperties {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
    private static final ConsolidateSettings CONSOLIDATE = new ConsolidateSettings(true,
            Map.of("cpu", 40, "memory", 40), Map.of("cpu", 85, "memory", 85), Duration.ofMinutes(15), 1,
            Duration.ofMinutes(10));

    private static RescheduleSettings settings(RescheduleSettings.MoveLimits limits, int nodesAtOnce) {
        return SettingsBuilder.limits(limits)
                .consolidate(new ConsolidateSettings(true, CONSOLIDATE.belowPercent(),
                        CONSOLIDATE.ceilingPercent(), CONSOLIDATE.drainWithin(), nodesAtOnce,
                        CONSOLIDATE.keepEmptyFor())).build();
    }

    @Property(tries = 500)
    void a_node_starts_only_with_a_landing_for_every_pod_under_the_ceiling(@ForAll long seed) {
        MovableCluster cluster = MovableCluster.generate(seed);
        ClusterSnapshot snapshot = cluster.snapshot();
        ReschedulePlan plan = Rounds.plan(snapshot, settings(new RescheduleSettings.MoveLimits(100, 100,
                100, 100, 100), 1 + (int) Math.floorMod(seed, 3L)), List.of(), NOW);
        Set<String> started = new HashSet<>();
        List<Move> landings = new ArrayList<>();
        for (NodeDrain drain : plan.drains()) {
            if (drain.step() == NodeDrain.Step.START) {
                started.add(drain.node());
                List<String> leaving = leaving(snapshot.node(drain.node())).stream().map(PodInfo::uid).sorted().toList();
                assertThat(drain.landings().stream().map(m -> m.pod().uid()).sorted().toList())
                        .as("seed %d: every pod of %s has a landing", seed, drain.node()).isEqualTo(leaving);
                landings.addAll(drain.landings());
            } else {
                assertThat(drain.landings()).as("seed %d: %s", seed, drain).isEmpty();
            }
        }
        ClusterSnapshot state = snapshot;
        List<Move> done = new ArrayList<>();
        for (Move landing : landings) {
            PodInfo pod = state.pod(landing.pod().uid());
            NodeInfo to = state.node(landing.to());
            assertThat(started).as("seed %d: %s lands on a node being emptied", seed, landing).doesNotContain(landing.to());
            assertThat(leaving(to)).as("seed %d: %s fills an empty node", seed, landing).isNotEmpty();
            assertThat(SchedulerFilterOracle.of(state, pod, to).verdict()).as("seed %d: %s", seed, landing)
                    .isEqualTo(Verdict.FITS);
            done.add(landing);
            state = cluster.after(done, NOW);
            assertThat(underCeiling(state.node(landing.to()))).as("seed %d: %s passes the ceiling", seed, landing).isTrue();
        }
        assertThat(landings).as("seed %d: the moves are among the landings", seed).containsAll(plan.moves());
        assertThat(plan.moves()).allMatch(m -> started.contains(m.from()) && m.policy() == ConsolidatePolicy.KIND);
        Tally.label("started").collect(started.size());
    }

    @Property(tries = 200)
    void round_after_round_nodes_only_empty_and_every_drain_ends_untainted(@ForAll long seed) {
        ClusterSnapshot state = MovableCluster.generate(seed).snapshot();
        RescheduleSettings settings = settings(new RescheduleSettings.MoveLimits(3, 1, 100, 100, 100), 1);
        long occupied = occupied(state);
        int rounds = 0;
        int emptied = 0;
        while (true) {
            ReschedulePlan plan = Rounds.plan(state, settings, List.of(), NOW);
            boolean changes = !plan.moves().isEmpty() || plan.drains().stream().anyMatch(d -> d.step() != NodeDrain.Step.NOT_STARTED);
            if (!changes) {
                break;
            }
            assertThat(++rounds).as("seed %d: still consolidating after 100 rounds", seed).isLessThanOrEqualTo(100);
            state = new MovableCluster(state).after(plan.moves(), NOW);
            for (NodeDrain drain : plan.drains()) { // the rescheduler's part: the taint written and removed
                switch (drain.step()) {
                    case START -> state = tainted(state, drain.node(), ConsolidationMark.draining(NOW));
                    case EMPTIED -> {
                        assertThat(leaving(state.node(drain.node()))).as("seed %d: %s", seed, drain).isEmpty();
                        state = tainted(state, drain.node(), ConsolidationMark.emptied(NOW));
                        emptied++;
                    }
                    case ABANDON, RELEASE -> state = tainted(state, drain.node(), null);
                    default -> {
                    }
                }
            }
            for (Move move : plan.moves()) {
                assertThat(underCeiling(state.node(move.to()))).as("seed %d, round %d: %s", seed, rounds, move).isTrue();
            }
            long now = occupied(state);
            assertThat(now).as("seed %d, round %d: nodes with pods", seed, rounds).isLessThanOrEqualTo(occupied);
            occupied = now;
        }
        // at rest every drain has ended: no node is left draining, and a node kept tainted is an empty one
        for (NodeInfo node : state.nodes()) {
            ConsolidationMark mark = ConsolidationMark.of(node).orElse(null);
            assertThat(mark == null || mark.emptied() && leaving(node).isEmpty()).as("seed %d: %s at rest: %s", seed,
                    node.name(), mark).isTrue();
        }
        Tally.label("emptied").collect(emptied > 2 ? "3+" : String.valueOf(emptied));
    }

    private static List<PodInfo> leaving(NodeInfo node) {
        return node.pods().stream().filter(p -> !p.mirror() && (p.controller() == null || !p.controller().isDaemonSet()))
                .toList();
    }

    private static long occupied(ClusterSnapshot state) {
        return state.nodes().stream().filter(n -> !leaving(n).isEmpty()).count();
    }

    private static boolean underCeiling(NodeInfo node) {
        for (Map.Entry<String, Integer> ceiling : CONSOLIDATE.ceilingPercent().entrySet()) {
            long requested = node.pods().stream().mapToLong(p -> p.requests().get(ceiling.getKey())).sum();
            if (100.0 * requested / node.allocatable().get(ceiling.getKey()) > ceiling.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** The node with the policy's taint replaced by {@code taint} (null: removed), as the rescheduler writes it. */
    private static ClusterSnapshot tainted(ClusterSnapshot state, String name, Taint taint) {
        NodeInfo node = state.node(name);
        List<Taint> taints = new ArrayList<>(node.admission().taints());
        taints.removeIf(t -> ConsolidationMark.TAINT_KEY.equals(t.key()));
        if (taint != null) {
            taints.add(taint);
        }
        NodeAdmission admission = new NodeAdmission(node.admission().unschedulable(), taints, node.admission().avoided());
        return state.change().putNode(new NodeInfo(node.name(), node.labels(), node.allocatable(), node.pods(),
                node.nominatedPods(), admission)).build();
    }
}
