package dev.makeroom.core.rounds;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Each of the scope's rules leaves a pod out by name, in words; a pod no rule concerns is in. */
class ScopeTest {

    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final ClusterSnapshot SNAPSHOT = ClusterSnapshot.builder()
            .node("node-1", Map.of("pool", "batch"), Resources.of("cpu", 4000, "pods", 10))
            .pod(running("web", "node-1", 500, 100).build())
            .build();
    private static final PodInfo WEB = SNAPSHOT.pods().iterator().next();

    /** A replica of team's ReplicaSet {@code rs-name}, running on {@code node}. */
    private static PodInfo.Builder running(String name, String node, long cpu, int priority) {
        return PodInfo.builder(name).name(name).namespace("team").nodeName(node).priority(priority)
                .requests(Resources.of("cpu", cpu)).labels(Map.of("app", name))
                .controller(new OwnerRef("ReplicaSet", "rs-" + name, "rs-" + name));
    }

    private static Scope.Verdict of(Scope scope, PodInfo pod) {
        return scope.in(SNAPSHOT, NOW).of(pod);
    }

    private static Scope scope(Set<String> include, Set<String> exclude, LabelSelector pods, LabelSelector nodes,
                               Integer threshold, Duration minAge, int minReplicas) {
        return new Scope(include, exclude, pods, nodes, threshold, minAge, minReplicas);
    }

    @Test
    void each_rule_leaves_a_pod_out_by_its_name() {
        LabelSelector any = LabelSelector.EMPTY;
        assertThat(of(Scope.ALL, WEB)).isEqualTo(Scope.IN);
        assertThat(of(scope(Set.of("other"), Set.of(), any, any, null, Duration.ZERO, 0), WEB))
                .isEqualTo(new Scope.Out(Scope.Rule.INCLUDED_NAMESPACES, "namespace team is not among the scope's namespaces"));
        assertThat(of(scope(Set.of(), Set.of("team"), any, any, null, Duration.ZERO, 0), WEB))
                .extracting(v -> ((Scope.Out) v).rule()).isEqualTo(Scope.Rule.EXCLUDED_NAMESPACES);
        assertThat(of(scope(Set.of(), Set.of(), LabelSelector.matching(Map.of("app", "db")), any, null, Duration.ZERO, 0), WEB))
                .extracting(v -> ((Scope.Out) v).rule()).isEqualTo(Scope.Rule.POD_SELECTOR);
        assertThat(of(scope(Set.of(), Set.of(), any, LabelSelector.matching(Map.of("pool", "gpu")), null, Duration.ZERO, 0), WEB))
                .extracting(v -> ((Scope.Out) v).rule()).isEqualTo(Scope.Rule.NODE_SELECTOR);
        assertThat(of(scope(Set.of(), Set.of(), any, any, 100, Duration.ZERO, 0), WEB))
                .isEqualTo(new Scope.Out(Scope.Rule.PRIORITY_THRESHOLD,
                        "priority 100 is at or above the scope's priorityThreshold 100"));
        PodInfo young = running("young", "node-1", 500, 0).creationTime(NOW.minusSeconds(30)).build();
        assertThat(of(scope(Set.of(), Set.of(), any, any, null, Duration.ofMinutes(5), 0), young))
                .extracting(v -> ((Scope.Out) v).rule()).isEqualTo(Scope.Rule.MIN_POD_AGE);
        assertThat(of(scope(Set.of(), Set.of(), any, any, null, Duration.ZERO, 2), WEB))
                .isEqualTo(new Scope.Out(Scope.Rule.MIN_REPLICAS,
                        "its controller has 1 pods, fewer than the scope's minReplicas 2"));
        assertThat(of(scope(Set.of("team"), Set.of(), LabelSelector.matching(Map.of("app", "web")),
                LabelSelector.matching(Map.of("pool", "batch")), 1000, Duration.ZERO, 1), WEB).in()).isTrue();
    }
}
