package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.cluster.ConfigMapFeed;
import dev.makeroom.core.model.Avoidance;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.PreemptionCheck;
import dev.makeroom.support.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

@org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
class ReschedulerTest {

    private static final String POLICIES = """
            policies:
              rebalance: {enabled: true, low: {cpu: 40}, high: {cpu: 70}}
            limits: {perRound: 5, perNodePerRound: 5, perNamespacePerHour: 5, perControllerPerHour: 1, clusterPerHour: 5}
            """;

    /** A hot node with three pods of two Deployments, a cold node whose avoid list has an entry of makeroom's, expired. */
    private static final ClusterSnapshot HOT_AND_COLD = ClusterSnapshot.builder()
            .node("hot", Map.of(), Resources.of("cpu", 4000, "pods", 10))
            .node("cold", Map.of(), Resources.of("cpu", 4000, "pods", 10), new NodeAdmission(false, List.of(),
                    List.of(new Avoidance("rs-gone", Instant.parse("2026-11-23T11:00:00Z"), true))))
            .pod(pod("a-1", "a", 1000)).pod(pod("a-2", "a", 1000)).pod(pod("b-1", "b", 1000)).build();

    private static PodInfo pod(String name, String deployment, long cpu) {
        return PodInfo.builder(name).name(name).namespace("shop").nodeName("hot").requests(Resources.of("cpu", cpu))
                .controller(new OwnerRef("ReplicaSet", deployment, "rs-" + deployment)).build();
    }

    private static PodInfo onHot2(String name, long cpu) {
        return PodInfo.builder(name).name(name).namespace("shop").nodeName("hot-2").requests(Resources.of("cpu", cpu))
                .controller(new OwnerRef("ReplicaSet", name, "rs-" + name)).build();
    }

    private final List<Move> evicted = new ArrayList<>();
    private final List<String> expiredOn = new ArrayList<>();
    private final Evictor recording = new Evictor() {
        @Override
        public EvictionOutcome evict(PodInfo pod, Move move) {
            evicted.add(move);
            return new EvictionOutcome(EvictionOutcome.Result.EVICTED, "evicted");
        }

        @Override
        public void expireAvoidances(String node) {
            expiredOn.add(node);
        }
    };
    private final AtomicBoolean leading = new AtomicBoolean(true);
    private final AtomicBoolean ready = new AtomicBoolean(true);
    private final ClusterView view = view(HOT_AND_COLD, ready::get);

    /** A view that always shows {@code snapshot}, ready while {@code ready} says so. */
    static ClusterView view(ClusterSnapshot snapshot, java.util.function.BooleanSupplier ready) {
        return new ClusterView() {
            @Override
            public ClusterSnapshot snapshot() {
                return snapshot;
            }

            @Override
            public boolean ready() {
                return ready.getAsBoolean();
            }
        };
    }

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Rescheduler rescheduler(ReschedulerMode mode) {
        Clock clock = Clock.fixed(Instant.parse("2026-11-23T12:00:00Z"), ZoneOffset.UTC);
        return new Rescheduler(mode, view, new ReschedulerConfigService(null, POLICIES, ConfigMapFeed.NONE, clock),
                recording, new NoApi(), new NoApi(), leading::get, clock, System::nanoTime, new ReschedulerMetrics(registry),
                PreemptionCheck.NEVER, List.of());
    }

    @Test
    void in_evict_mode_the_leader_evicts_what_it_plans_once_per_controller_per_hour() {
        Rescheduler rescheduler = rescheduler(ReschedulerMode.EVICT);
        RoundReport first = rescheduler.round();
        assertThat(first.moves()).extracting(RoundReport.MoveResult::result).containsOnly(RoundReport.MoveOutcome.EVICTED);
        assertThat(evicted).extracting(m -> m.pod().name()).containsExactly("a-1");
        assertThat(registry.get("makeroom.rescheduler.evicted.pods").tag("namespace", "shop").tag("node", "hot")
                .counter().count()).isEqualTo(1);
        assertThat(expiredOn).containsExactly("cold"); // its expired entry goes
        // the view has not caught up (same snapshot): a-2 is the same Deployment, within the hour
        RoundReport second = rescheduler.round();
        assertThat(second.moves()).extracting(m -> m.move().pod().name()).doesNotContain("a-1", "a-2");
        assertThat(second.skipped()).anyMatch(s -> s.pod().name().equals("a-2") && s.category() == dev.makeroom.core.rounds.SkipCategory.LIMIT);
    }

    @Test
    void a_dry_run_and_the_debug_plan_evict_nothing() {
        RoundReport round = rescheduler(ReschedulerMode.DRY_RUN).round();
        assertThat(round.moves()).isNotEmpty().extracting(RoundReport.MoveResult::result).containsOnly(RoundReport.MoveOutcome.PLANNED);
        assertThat(rescheduler(ReschedulerMode.EVICT).planNow().moves()).isNotEmpty();
        assertThat(evicted).isEmpty();
        assertThat(expiredOn).isEmpty();
    }

    @Test
    void only_the_leader_acts_and_only_on_a_ready_view() {
        Rescheduler rescheduler = rescheduler(ReschedulerMode.EVICT);
        leading.set(false);
        assertThat(rescheduler.round().idle()).isEqualTo("another replica leads");
        leading.set(true);
        ready.set(false);
        assertThat(rescheduler.round().idle()).isEqualTo("the cluster view is not ready");
        assertThat(evicted).isEmpty();
        assertThat(rescheduler.rounds()).as("a quiet round is kept only until the next").hasSize(1);
    }

    @Test
    void a_replica_that_does_not_serve_the_extender_verbs_does_not_act_and_stops_within_a_round() {
        java.util.concurrent.atomic.AtomicReference<String> shut = new java.util.concurrent.atomic.AtomicReference<>(
                "its extender port is not listening yet");
        ActingGate gate = () -> java.util.Optional.ofNullable(shut.get()).map(ActingGate.Shut::new);
        Clock clock = Clock.fixed(Instant.parse("2026-11-23T12:00:00Z"), ZoneOffset.UTC);
        // the port stops answering as the first eviction is sent: the round's later moves are not sent
        Evictor stopsServing = new Evictor() {
            @Override
            public EvictionOutcome evict(PodInfo pod, Move move) {
                evicted.add(move);
                shut.set("its extender port does not answer (HttpTimeoutException: request timed out)");
                return new EvictionOutcome(EvictionOutcome.Result.EVICTED, "evicted");
            }

            @Override
            public void expireAvoidances(String node) {
                expiredOn.add(node);
            }
        };
        Rescheduler rescheduler = new Rescheduler(ReschedulerMode.EVICT, view(ClusterSnapshot.builder()
                .node("hot", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .node("hot-2", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .node("cold", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .node("cold-2", Map.of(), Resources.of("cpu", 4000, "pods", 10))
                .pod(pod("a-1", "a", 1000)).pod(pod("b-1", "b", 1000)).pod(pod("c-1", "c", 1000))
                .pod(onHot2("d-1", 1000)).pod(onHot2("e-1", 2000)).build(), () -> true),
                new ReschedulerConfigService(null, POLICIES, ConfigMapFeed.NONE, clock), stopsServing, new NoApi(),
                new NoApi(), () -> true, clock, System::nanoTime, new ReschedulerMetrics(registry), PreemptionCheck.NEVER,
                List.of(), java.time.Duration.ofMinutes(2), gate);

        assertThat(rescheduler.round().idle()).isEqualTo("not acting: its extender port is not listening yet");
        assertThat(rescheduler.notActing()).map(ActingGate.Shut::why).hasValue("its extender port is not listening yet");
        assertThat(evicted).isEmpty();

        shut.set(null);
        RoundReport round = rescheduler.round();
        assertThat(round.moves()).as("the plan moves more than one pod").hasSizeGreaterThan(1);
        assertThat(evicted).hasSize(1);
        assertThat(round.moves().subList(1, round.moves().size())).allSatisfy(m -> {
            assertThat(m.result()).isEqualTo(RoundReport.MoveOutcome.NOT_TRIED);
            assertThat(m.detail()).startsWith("stopped acting during the round: its extender port does not answer");
        });

        shut.set(null);
        rescheduler.stopActing();
        assertThat(rescheduler.round().idle()).isEqualTo("not acting: makeroom is shutting down");
        assertThat(evicted).hasSize(1);
    }

    @Test
    void a_move_that_counted_on_a_refused_eviction_is_not_tried() {
        SchedulingConstraints gpuOnly = new SchedulingConstraints(List.of(), List.of(),
                List.of(LabelSelector.matching(Map.of("pool", "gpu"))), List.of());
        // misfit must leave x for the gpu node; then x, emptied, is where hot's batch pod goes
        ClusterSnapshot snapshot = ClusterSnapshot.builder()
                .node("gpu", Map.of("pool", "gpu"), Resources.of("cpu", 4000, "pods", 10))
                .node("hot", Map.of("pool", "general"), Resources.of("cpu", 4000, "pods", 10))
                .node("x", Map.of("pool", "general"), Resources.of("cpu", 4000, "pods", 10))
                .pod(pod("misfit", "m", 2000).toBuilder().nodeName("x").constraints(gpuOnly).build())
                .pod(pod("batch", "b", 1000)).pod(pod("big", "g", 2000)).build();
        List<String> tried = new ArrayList<>();
        Evictor refusingMisfit = new Evictor() {
            @Override
            public EvictionOutcome evict(PodInfo pod, Move move) {
                tried.add(pod.name());
                return new EvictionOutcome(pod.name().equals("misfit") ? EvictionOutcome.Result.BLOCKED_BY_BUDGET
                        : EvictionOutcome.Result.EVICTED, "said so");
            }

            @Override
            public void expireAvoidances(String node) {
                // the test reads no avoid list
            }
        };
        ClusterView fixed = view(snapshot, () -> true);
        Clock clock = Clock.fixed(Instant.parse("2026-11-23T12:00:00Z"), ZoneOffset.UTC);
        String policies = POLICIES.replace("policies:", "policies:\n  affinity: {enabled: true}");
        RoundReport round = new Rescheduler(ReschedulerMode.EVICT, fixed,
                new ReschedulerConfigService(null, policies, ConfigMapFeed.NONE, clock), refusingMisfit, new NoApi(), new NoApi(), () -> true, clock,
                System::nanoTime, new ReschedulerMetrics(new SimpleMeterRegistry()), PreemptionCheck.NEVER, List.of()).round();
        assertThat(round.moves()).extracting(m -> m.move().pod().name() + "->" + m.move().to() + " " + m.result())
                .containsExactly("misfit->gpu BLOCKED_BY_BUDGET", "batch->x NOT_TRIED");
        assertThat(tried).containsExactly("misfit");
    }

    @Test
    void the_first_round_that_can_plan_runs_as_soon_as_the_view_is_ready_not_an_interval_later() {
        ready.set(false);
        Rescheduler rescheduler = rescheduler(ReschedulerMode.DRY_RUN).start(java.time.Duration.ofHours(1));
        try {
            Await.until("a round that found the view syncing", java.time.Duration.ofSeconds(10),
                    () -> !rescheduler.rounds().isEmpty());
            assertThat(rescheduler.rounds().get(0).idle()).isEqualTo("the cluster view is not ready");
            ready.set(true);
            Await.until("a round that planned, within seconds of an hour's interval", java.time.Duration.ofSeconds(10),
                    () -> rescheduler.rounds().get(0).idle() == null);
            assertThat(rescheduler.rounds().get(0).moves()).isNotEmpty();
        } finally {
            rescheduler.close();
        }
    }

    @Test
    void a_dry_run_logs_each_move_it_would_make(org.springframework.boot.test.system.CapturedOutput output) {
        RoundReport round = rescheduler(ReschedulerMode.DRY_RUN).round();
        assertThat(round.moves()).isNotEmpty();
        for (RoundReport.MoveResult planned : round.moves()) {
            Move move = planned.move();
            assertThat(output).contains("rescheduler (dry run): would evict " + move.pod() + " from " + move.from()
                    + " (" + move.policy() + ": " + move.reason() + "); expected on " + move.to());
        }
    }
}
