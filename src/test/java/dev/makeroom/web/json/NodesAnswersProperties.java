package dev.makeroom.web.json;

import dev.makeroom.core.filter.FilterVerdict;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.score.NodeScore;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import org.junit.jupiter.api.Test;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import dev.makeroom.support.property.IntRange;
import dev.makeroom.support.property.Size;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Filter and prioritize answers read back with a real JSON parser say exactly what the verdict
 * says: whether names are copied from their cached encodings (in the request's order, the
 * production path), or must be encoded as they are (any other order, equal but not identical
 * strings, names no node has, names needing escapes), and whichever snapshot the cache last saw.
 */
class NodesAnswersProperties {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final List<String> REASONS = List.of("Insufficient cpu", "Too many pods", "unknown node", "é \"x\"");

    private final WireJson json = new WireJson();
    private final NodeNameJson cache = new NodeNameJson(); // shared by all tries: snapshots keep changing under it

    @Property(tries = 300)
    void a_filter_answer_reads_back_as_the_verdict(@ForAll("names") @Size(max = 12) List<String> clusterNodes,
                                                   @ForAll("names") @Size(max = 20) List<String> asked,
                                                   @ForAll long seed, @ForAll boolean inRequestOrder) {
        ClusterSnapshot snapshot = snapshotOf(clusterNodes);
        NodesArgs args = readNames(asked, snapshot);
        Random random = new Random(seed);
        List<String> passed = new ArrayList<>();
        Map<String, String> failed = new LinkedHashMap<>();
        for (String name : args.names()) {
            String same = random.nextInt(5) == 0 ? new String(name.toCharArray()) : name; // equal, not identical
            if (random.nextBoolean()) {
                passed.add(same);
            } else {
                failed.put(same, REASONS.get(random.nextInt(REASONS.size())));
            }
        }
        if (!inRequestOrder) {
            Collections.shuffle(passed, random);
        }

        JsonNode answer = MAPPER.readTree(NodesAnswers.filter(args, new FilterVerdict(passed, failed, Map.of()),
                cache.of(snapshot.table())).toByteArray());

        assertThat(answer.get("Nodes").isNull()).isTrue();
        assertThat(strings(answer.get("NodeNames"))).isEqualTo(passed);
        assertThat(entries(answer.get("FailedNodes"))).isEqualTo(new ArrayList<>(failed.entrySet()));
        assertThat(answer.get("FailedAndUnresolvableNodes").isEmpty()).isTrue();
        assertThat(answer.get("Error").asString()).isEmpty();
    }

    @Property(tries = 200)
    void a_full_object_filter_answer_echoes_the_passing_nodes_in_order(@ForAll @Size(max = 30) List<@IntRange(max = 40_000) Integer> padding,
                                                                       @ForAll long seed, @ForAll boolean inRequestOrder) {
        Random random = new Random(seed);
        List<String> nodes = new ArrayList<>();
        StringBuilder body = new StringBuilder("{\"Pod\":{},\"Nodes\":{\"metadata\":{\"resourceVersion\":\"9\"},\"items\":[");
        for (int i = 0; i < padding.size(); i++) { // objects small and large (runs of them pass 64 KB), any spacing
            String node = "{\"metadata\":{\"name\":\"node-" + i + "\"},\"pad\":\"" + "x".repeat(padding.get(i)) + "\"}";
            nodes.add(node);
            body.append(i == 0 ? "" : random.nextBoolean() ? "," : " ,\n ").append(node);
        }
        NodesArgs args = json.readNodesArgs(body.append("]}}").toString().getBytes(StandardCharsets.UTF_8),
                ClusterSnapshot.EMPTY.table());
        List<String> passed = new ArrayList<>();
        List<JsonNode> echoed = new ArrayList<>();
        Map<String, String> failed = new LinkedHashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            if (random.nextInt(4) > 0) {
                passed.add("node-" + i);
                echoed.add(MAPPER.readTree(nodes.get(i)));
            } else {
                failed.put("node-" + i, "Insufficient cpu");
            }
        }
        if (!inRequestOrder) { // the echo still follows the request's order
            Collections.shuffle(passed, random);
        }

        JsonNode answer = MAPPER.readTree(NodesAnswers.filter(args, new FilterVerdict(passed, failed, Map.of()),
                cache.of(ClusterSnapshot.EMPTY.table())).toByteArray());

        assertThat(answer.get("Nodes").get("metadata").get("resourceVersion").asString()).isEqualTo("9");
        assertThat(answer.get("Nodes").get("items").values()).containsExactlyElementsOf(echoed);
        assertThat(answer.get("NodeNames").isNull()).isTrue();
        assertThat(entries(answer.get("FailedNodes"))).isEqualTo(new ArrayList<>(failed.entrySet()));
    }

    @Property(tries = 300)
    void a_prioritize_answer_reads_back_as_the_scores(@ForAll("names") @Size(max = 12) List<String> clusterNodes,
                                                      @ForAll("names") @Size(max = 20) List<String> asked,
                                                      @ForAll long seed, @ForAll boolean inRequestOrder) {
        ClusterSnapshot snapshot = snapshotOf(clusterNodes);
        NodesArgs args = readNames(asked, snapshot);
        Random random = new Random(seed);
        List<NodeScore> scores = new ArrayList<>();
        args.names().forEach(name -> scores.add(new NodeScore(name, random.nextInt(11))));
        if (!inRequestOrder) {
            Collections.shuffle(scores, random);
        }

        JsonNode answer = MAPPER.readTree(NodesAnswers.scores(args.nodes(), scores, cache.of(snapshot.table())).toByteArray());

        assertThat(answer.size()).isEqualTo(scores.size());
        for (int i = 0; i < scores.size(); i++) {
            assertThat(answer.get(i).get("Host").asString()).isEqualTo(scores.get(i).host());
            assertThat(answer.get(i).get("Score").asInt()).isEqualTo(scores.get(i).score());
        }
    }

    @Test
    void encodings_are_kept_while_the_nodes_stay_and_made_anew_when_a_node_joins() {
        ClusterSnapshot first = snapshotOf(List.of("node-a", "nöde-\"b\"", "n-1", "n-2", "n-3", "n-4", "n-5", "n-6"));
        NodeInfo a = first.node("node-a");
        first.table(); // built before the change, so the next snapshot derives its table from this one
        ClusterSnapshot changed = first.change().putNode(a.withPods(a.pods(), a.nominatedPods())).build();
        ClusterSnapshot joined = changed.change().putNode(new NodeInfo("node-c", Map.of(), Resources.NONE,
                List.of(), List.of())).build();

        NodeNameJson.Encoded before = cache.of(first.table());
        NodeNameJson.Encoded kept = cache.of(changed.table());
        NodeNameJson.Encoded anew = cache.of(joined.table());

        assertThat(changed.table()).isNotSameAs(first.table());
        assertThat(kept.bytes()).isSameAs(before.bytes());
        assertThat(kept.table()).isSameAs(changed.table()); // the older table is not held on to
        assertThat(anew.bytes()).isNotSameAs(before.bytes());
        List<String> written = new ArrayList<>();
        for (int row = 0; row < joined.table().size(); row++) {
            JsonOut out = new JsonOut(16);
            anew.write(out, row, null);
            written.add(MAPPER.readTree(out.answer().toByteArray()).asString());
            assertThat(written.get(row)).isEqualTo(joined.table().name(row));
        }
        assertThat(written).containsExactlyInAnyOrder("node-a", "nöde-\"b\"", "n-1", "n-2", "n-3", "n-4", "n-5", "n-6",
                "node-c");
    }

    /** Plain names, names JSON must escape, non-ASCII ones, and a few that collide often. */
    @Provide
    Gen<List<String>> names() {
        Gen<String> name = Gens.oneOf(
                Gens.of("node-1", "node-2", "node-3", "n"),
                Gens.strings().withChars("ab-.\"\\\né").ofMinLength(1).ofMaxLength(8).map(n -> n.endsWith("é") ? n + "😀" : n),
                Gens.strings().alpha().numeric().ofMinLength(1).ofMaxLength(12));
        return name.list();
    }

    private static ClusterSnapshot snapshotOf(List<String> names) {
        ClusterSnapshot.Builder builder = ClusterSnapshot.builder();
        names.stream().distinct().forEach(n -> builder.node(n, Map.of(), Resources.NONE));
        return builder.build();
    }

    /** Read as the controller reads them: known names are the table's own Strings, with their rows. */
    private NodesArgs readNames(List<String> names, ClusterSnapshot snapshot) {
        byte[] body = MAPPER.writeValueAsBytes(Map.of("NodeNames", names));
        return json.readNodesArgs(body, snapshot.table());
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asString()));
        return values;
    }

    private static List<Map.Entry<String, String>> entries(JsonNode object) {
        List<Map.Entry<String, String>> values = new ArrayList<>();
        object.properties().forEach(e -> values.add(Map.entry(e.getKey(), e.getValue().asString())));
        return values;
    }
}
