package dev.makeroom.rescheduler;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.cluster.ConfigMapFeed;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.DisruptionBudget;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.rounds.Evictor;
import dev.makeroom.core.rounds.Move;
import dev.makeroom.core.rounds.PreemptionCheck;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Tally;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many rounds against a fake API that refuses some pods' evictions every time (as a budget whose
 * status lags would), beside a budget that allows nothing, and carries the others out (the pod goes,
 * its replacement appears where the move expected): no pod the budget guards is ever sent, no refused
 * pod is sent to the API again before its backoff has run out (1, 2, 4 … rounds), and every round whose
 * plan has a move tries at least one eviction.
 */
class RefusalRoundsProperties {

    private static final String POLICIES = """
            policies:
              rebalance: {enabled: true, low: {cpu: 50}, high: {cpu: 60}}
            limits: {perRound: 3, perNodePerRound: 3, perNamespacePerHour: 100, perControllerPerHour: 100, clusterPerHour: 100}
            """;

    /** The API: refuses the pods named, evicts the rest, and the view follows what it did. */
    private static final class FakeApi implements Evictor, ClusterView {
        private ClusterSnapshot snapshot;
        private final Set<String> refusing;
        final List<String> tried = new ArrayList<>();
        final List<String> triedApps = new ArrayList<>();

        FakeApi(ClusterSnapshot snapshot, Set<String> refusing) {
            this.snapshot = snapshot;
            this.refusing = refusing;
        }

        @Override
        public EvictionOutcome evict(PodInfo pod, Move move) {
            tried.add(pod.name());
            triedApps.add(pod.labels().get("app"));
            if (refusing.contains(pod.name())) {
                return new EvictionOutcome(EvictionOutcome.Result.BLOCKED_BY_BUDGET, "429 Too Many Requests");
            }
            PodInfo replacement = PodInfo.builder(pod.uid() + "-r").name(pod.name() + "-r").namespace(pod.namespace())
                    .labels(pod.labels())
                    .nodeName(move.to()).priority(pod.priority()).requests(pod.requests()).startTime(pod.startTime())
                    .controller(pod.controller()).build();
            ClusterSnapshot.Change change = snapshot.change().removePod(pod.uid()).putPod(replacement);
            for (NodeInfo node : snapshot.nodes()) {
                List<PodInfo> pods = new ArrayList<>(node.pods());
                boolean touched = pods.removeIf(p -> p.uid().equals(pod.uid()));
                if (node.name().equals(move.to())) {
                    pods.add(replacement);
                    touched = true;
                }
                if (touched) {
                    change.putNode(node.withPods(pods, node.nominatedPods()));
                }
            }
            snapshot = change.build();
            return new EvictionOutcome(EvictionOutcome.Result.EVICTED, "evicted");
        }

        @Override
        public void expireAvoidances(String node) {
            // the property reads no avoid list
        }

        @Override
        public ClusterSnapshot snapshot() {
            return snapshot;
        }

        @Override
        public boolean ready() {
            return true;
        }
    }

    /** Two hot nodes of pods of several ReplicaSets, three empty nodes. */
    private static ClusterSnapshot cluster(Random random) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (String node : List.of("hot-1", "hot-2", "cold-1", "cold-2", "cold-3")) {
            b.node(node, Map.of(), Resources.of("cpu", 4000, "pods", 20));
        }
        int i = 0;
        for (String hot : List.of("hot-1", "hot-2")) {
            for (int n = 0; n < 5; n++, i++) {
                b.pod(PodInfo.builder("uid-" + i).name("pod-" + i).namespace("shop").nodeName(hot)
                        .priority(random.nextInt(3)).requests(Resources.of("cpu", 500))
                        .startTime(Instant.parse("2026-11-01T00:00:00Z").plusSeconds(i))
                        .labels(Map.of("app", "app-" + i % 3))
                        .controller(new OwnerRef("ReplicaSet", "rs-" + i % 3, "rs-uid-" + i % 3)).build());
            }
        }
        // app-0's budget allows nothing: its pods may never be sent, and must not keep the others from moving
        return b.budget(new DisruptionBudget("shop", "guard", LabelSelector.matching(Map.of("app", "app-0")), 0, Set.of()))
                .build();
    }

    @Property(tries = 100)
    void a_refused_pod_waits_out_its_backoff_and_every_round_with_a_move_tries_one(@ForAll long seed) {
        Random random = new Random(seed);
        Set<String> refusing = new HashSet<>();
        for (int i = 0; i < 10; i++) {
            if (random.nextInt(3) == 0) {
                refusing.add("pod-" + i);
            }
        }
        FakeApi api = new FakeApi(cluster(random), refusing);
        Clock clock = Clock.fixed(Instant.parse("2026-11-26T12:00:00Z"), ZoneOffset.UTC);
        Rescheduler rescheduler = new Rescheduler(ReschedulerMode.EVICT, api,
                new ReschedulerConfigService(null, POLICIES, ConfigMapFeed.NONE, clock), api, new NoApi(), new NoApi(), () -> true, clock,
                System::nanoTime, new ReschedulerMetrics(new SimpleMeterRegistry()), PreemptionCheck.NEVER, List.of());
        Map<String, Integer> refusals = new HashMap<>();
        Map<String, Integer> heldUntilRound = new HashMap<>(); // not tried again before this round
        int evictions = 0;
        for (int round = 0; round < 20; round++) {
            int before = api.tried.size();
            RoundReport report = rescheduler.round();
            List<String> tried = api.tried.subList(before, api.tried.size());
            assertThat(api.triedApps.subList(before, api.triedApps.size())).as("seed %d: a pod the budget guards was sent",
                    seed).doesNotContain("app-0");
            for (String pod : tried) {
                assertThat(round).as("seed %d: %s tried again in round %d", seed, pod, round)
                        .isGreaterThanOrEqualTo(heldUntilRound.getOrDefault(pod, 0));
                if (refusing.contains(pod)) {
                    int n = refusals.merge(pod, 1, Integer::sum);
                    heldUntilRound.put(pod, round + 1 + (1 << (n - 1)));
                } else {
                    evictions++;
                }
            }
            if (!report.moves().isEmpty()) {
                assertThat(tried).as("seed %d: round %d planned %s and tried nothing", seed, round, report.moves())
                        .isNotEmpty();
            }
        }
        Tally.label("evictions in 20 rounds").collect(evictions == 0 ? "0" : evictions < 4 ? "1-3" : "4+");
        Tally.label("refused pods tried").collect(refusals.isEmpty() ? "none" : "some");
    }
}
