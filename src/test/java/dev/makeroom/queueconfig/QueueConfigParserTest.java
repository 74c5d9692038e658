package dev.makeroom.queueconfig;

import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.queue.InvalidQueueConfigException;
import dev.makeroom.core.queue.Queue;
import dev.makeroom.core.queue.QueuePolicy;
import dev.makeroom.core.queue.QueueTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueueConfigParserTest {

    static final String EXAMPLE = """
            defaultQueue: root.default
            queues:
              - name: root
                queues:
                  - name: prod
                    resources:
                      guaranteed: {cpu: "4", memory: 8Gi}
                      max: {cpu: 8, memory: 16Gi}
                    properties:
                      preemption.policy: default
                      preemption.delay: 1m30s
                  - name: tenant1
                    properties: {preemption.policy: Fence}
                    queues:
                      - name: batch
                        resources: {guaranteed: {cpu: 500m, pods: 0}}
                  - name: default
            """;

    @Test
    void reads_the_documented_example() {
        List<String> warnings = new ArrayList<>();
        QueueTree tree = QueueConfigParser.parse(EXAMPLE, warnings::add);

        assertThat(warnings).isEmpty();
        Queue prod = tree.queue("root.prod");
        assertThat(prod.guaranteed()).isEqualTo(Map.of("cpu", 4000L, "memory", 8L << 30));
        assertThat(prod.max()).isEqualTo(Map.of("cpu", 8000L, "memory", 16L << 30));
        assertThat(prod.delay()).isEqualTo(Duration.ofSeconds(90));
        assertThat(tree.queue("root.tenant1").policy()).isEqualTo(QueuePolicy.FENCE);
        Queue batch = tree.queue("root.tenant1.batch");
        assertThat(batch.guaranteed()).isEqualTo(Map.of("cpu", 500L, "pods", 0L));
        assertThat(batch.delay()).isEqualTo(Queue.DEFAULT_DELAY);
        assertThat(tree.defaultQueue().fullName()).isEqualTo("root.default");
    }

    @Test
    void maps_pods_by_their_own_queue_then_namespace_annotation_then_namespace_then_default() {
        QueueTree tree = QueueConfigParser.parse(EXAMPLE, w -> { });
        Map<String, Map<String, String>> namespaces = Map.of("team", Map.of("makeroom.dev/queue", "root.tenant1.batch"));
        assertThat(leaf(tree, PodInfo.builder("a").namespace("team").queueHint("root.prod"), namespaces)).isEqualTo("root.prod");
        assertThat(leaf(tree, PodInfo.builder("b").namespace("team").queueHint("prod"), namespaces)).isEqualTo("root.prod");
        assertThat(leaf(tree, PodInfo.builder("c").namespace("team").queueHint("root.nowhere"), namespaces))
                .isEqualTo("root.tenant1.batch");
        assertThat(leaf(tree, PodInfo.builder("d").namespace("prod"), namespaces)).isEqualTo("root.prod");
        assertThat(leaf(tree, PodInfo.builder("e").namespace("elsewhere"), namespaces)).isEqualTo("root.default");
        // a parent queue is no place for pods
        assertThat(leaf(tree, PodInfo.builder("f").namespace("elsewhere").queueHint("root.tenant1"), namespaces))
                .isEqualTo("root.default");
    }

    private static String leaf(QueueTree tree, PodInfo.Builder pod, Map<String, Map<String, String>> namespaces) {
        return tree.leafOf(pod.build(), namespaces).fullName();
    }

    @Test
    void an_unparsable_delay_becomes_thirty_seconds_with_a_warning() {
        List<String> warnings = new ArrayList<>();
        QueueTree tree = QueueConfigParser.parse("""
                queues:
                  - name: root
                    queues:
                      - name: a
                        properties: {preemption.delay: soon}
                """, warnings::add);
        assertThat(tree.queue("root.a").delay()).isEqualTo(Duration.ofSeconds(30));
        assertThat(warnings).singleElement().asString().contains("root.a", "soon", "30s");
    }

    @Test
    void a_yunikorn_document_reads_as_yunikorn_users_write_it() {
        List<String> warnings = new ArrayList<>();
        QueueTree tree = QueueConfigParser.parse("""
                partitions:
                  - name: default
                    placementrules: [{name: tag, value: namespace, create: true}]
                    queues:
                      - name: root
                        submitacl: "*"
                        queues:
                          - name: spark
                            parent: false
                            maxapplications: 12
                            resources:
                              guaranteed: {vcore: 1500, memory: 2000000000}
                              max: {vcore: 8000, memory: 16Gi, nvidia.com/gpu: 2}
                  - name: gpu-partition
                    queues: [{name: root}]
                """, warnings::add);
        assertThat(warnings).isEmpty();
        Queue spark = tree.queue("root.spark");
        assertThat(spark.guaranteed()).isEqualTo(Map.of("cpu", 1500L, "memory", 2_000_000_000L));
        assertThat(spark.max()).isEqualTo(Map.of("cpu", 8000L, "memory", 16L << 30, "nvidia.com/gpu", 2L));
    }

    @Test
    void a_resource_no_pod_can_request_is_reported_not_silently_accepted() {
        List<String> warnings = new ArrayList<>();
        QueueConfigParser.parse("queues: [{name: root, queues: [{name: a, resources: {max: {gpu: 2, cpu: 4}}}]}]",
                warnings::add);
        assertThat(warnings).singleElement().asString().contains("no pod can request 'gpu'").contains("root.a max");
    }

    @Test
    void an_empty_document_means_no_queues() {
        assertThat(QueueConfigParser.parse("", w -> { }).enabled()).isFalse();
    }

    static Stream<Arguments> invalidDocuments() {
        String a = "{name: root, queues: [{name: a, %s}]}";
        return Stream.of(
                Arguments.of("not YAML", "queues: [name: root", "not valid YAML"),
                Arguments.of("two top queues", "queues: [{name: root}, {name: other}]", "exactly one queue"),
                Arguments.of("top queue not root", "queues: [{name: top}]", "named root"),
                Arguments.of("unknown field", "queues: [" + a.formatted("resources: {guaranted: {cpu: 1}}") + "]",
                        "unknown field 'guaranted'"),
                Arguments.of("bad quantity", "queues: [" + a.formatted("resources: {max: {cpu: lots}}") + "]",
                        "'lots' is not a quantity"),
                Arguments.of("negative quantity", "queues: [" + a.formatted("resources: {max: {cpu: -1}}") + "]",
                        "negative"),
                Arguments.of("guarantee over max",
                        "queues: [" + a.formatted("resources: {guaranteed: {cpu: 2}, max: {cpu: 1}}") + "]", "exceeds its max"),
                Arguments.of("children over parent", "queues: [{name: root, resources: {guaranteed: {cpu: 1}}, "
                        + "queues: [{name: a, resources: {guaranteed: {cpu: 2}}}]}]", "guaranteed more cpu"),
                Arguments.of("unknown policy", "queues: [" + a.formatted("properties: {preemption.policy: never}") + "]",
                        "not one of default, fence, disabled"),
                Arguments.of("zero delay", "queues: [" + a.formatted("properties: {preemption.delay: 0s}") + "]",
                        "must be more than 0"),
                Arguments.of("duplicate sibling", "queues: [{name: root, queues: [{name: a}, {name: a}]}]",
                        "two children named a"),
                Arguments.of("dotted name", "queues: [{name: root, queues: [{name: a.b}]}]", "must be letters"),
                Arguments.of("default queue not a leaf", "{defaultQueue: root, queues: [{name: root, queues: [{name: a}]}]}",
                        "is not a leaf"),
                Arguments.of("queues not a list", "queues: root", "must be a list"),
                Arguments.of("duplicate key", "{queues: [{name: root}], queues: []}", "not valid YAML"),
                Arguments.of("not a mapping", "- root", "must be a mapping"),
                Arguments.of("no default partition", "partitions: [{name: other, queues: [{name: root}]}]",
                        "makeroom reads the partition named default"),
                Arguments.of("partitions and queues", "{partitions: [], queues: [{name: root}]}", "both partitions and queues"),
                Arguments.of("fractional vcore", "queues: [" + a.formatted("resources: {max: {vcore: 0.5}}") + "]",
                        "must be whole millicores"),
                Arguments.of("cpu twice", "queues: [" + a.formatted("resources: {max: {vcore: 500, cpu: 1}}") + "]",
                        "names cpu twice"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidDocuments")
    void rejects_invalid_documents_whole_with_a_clear_reason(String what, String yaml, String reason) {
        assertThatThrownBy(() -> QueueConfigParser.parse(yaml, w -> { }))
                .isInstanceOf(InvalidQueueConfigException.class).hasMessageContaining(reason);
    }

    @ParameterizedTest
    @CsvSource({"30s,30000", "2m,120000", "1h30m,5400000", "1.5s,1500", "250ms,250", "0,0"})
    void reads_go_durations(String text, long millis) {
        assertThat(GoDuration.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @CsvSource({"30", "s", "1x", "''", "1m30"})
    void rejects_what_go_would_reject(String text) {
        assertThat(GoDuration.parse(text)).isNull();
    }
}
