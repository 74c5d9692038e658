package dev.makeroom.web;

import dev.makeroom.cluster.SnapshotFileLoader;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.mapping.SnapshotMapper;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Calls a real kube-scheduler of a newer version made with makeroom as its extender (see each folder's
 * capture-info.json), replayed over HTTP against the cluster as it stood at the preempt call. Filter and
 * preempt answer exactly what makeroom answered that scheduler, which acted on it; prioritize, asked
 * before the cluster reached that state, scores every node asked in the order asked.
 */
abstract class CapturedWithMakeroomReplay {

    @LocalServerPort
    int port;

    /** The folder under src/test/resources/fixtures, e.g. {@code kube-scheduler-v1.36/names}. */
    abstract String folder();

    private Path dir() {
        return Path.of("src/test/resources/fixtures").resolve(folder());
    }

    private List<Path> calls(String verb) {
        try (Stream<Path> files = Files.list(dir().resolve("all-calls"))) {
            return files.filter(f -> f.getFileName().toString().endsWith("-" + verb + ".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path answerTo(Path request) {
        return request.resolveSibling(request.getFileName().toString().replace(".json", ".response.json"));
    }

    private JsonNode post(String verb, Path request) {
        HttpResponse<String> response = new ExtenderClient(port).post("/scheduler/" + verb, read(request));
        assertThat(response.statusCode()).as(request + ": " + response.body()).isEqualTo(200);
        return Json.parse(response.body());
    }

    @Test
    void filter_and_preempt_answer_what_makeroom_answered_the_real_scheduler() {
        List<Path> asked = new ArrayList<>(calls("filter"));
        asked.addAll(calls("preempt"));
        assertThat(calls("preempt")).as("a preempt call was captured").hasSize(1);
        for (Path request : asked) {
            String verb = request.getFileName().toString().contains("preempt") ? "preempt" : "filter";
            assertThat(post(verb, request)).as(request.toString()).isEqualTo(Json.parse(read(answerTo(request))));
        }
    }

    @Test
    void the_preempt_answer_names_the_victim_the_scheduler_evicted_on_its_node() {
        ClusterSnapshot cluster = SnapshotMapper.toSnapshot(new SnapshotFileLoader().load(dir().resolve("cluster-at-preempt.json")));
        JsonNode answer = post("preempt", calls("preempt").get(0)).get("NodeNameToMetaVictims");

        assertThat(names(answer)).containsExactly("mr-a");
        JsonNode victims = answer.get("mr-a").get("Pods");
        assertThat(victims.size()).isEqualTo(1);
        PodInfo victim = cluster.pod(victims.get(0).get("UID").asString());
        assertThat(victim.name()).isEqualTo("low-1");
        assertThat(victim.nodeName()).isEqualTo("mr-a");
    }

    @Test
    void prioritize_scores_every_node_asked_in_the_order_asked() {
        assertThat(calls("prioritize")).as("a prioritize call was captured").isNotEmpty();
        for (Path request : calls("prioritize")) {
            JsonNode asked = Json.parse(read(request));
            List<String> hosts = new ArrayList<>();
            post("prioritize", request).forEach(score -> {
                hosts.add(score.get("Host").asString());
                assertThat(score.get("Score").asInt()).isBetween(0, 10);
            });
            assertThat(hosts).as(request.toString()).containsExactlyElementsOf(askedNames(asked));
        }
    }

    /** The node names a filter or prioritize body asks about, in either mode. */
    private static List<String> askedNames(JsonNode body) {
        List<String> names = new ArrayList<>();
        if (body.get("NodeNames") != null && body.get("NodeNames").isArray()) {
            body.get("NodeNames").forEach(n -> names.add(n.asString()));
        } else {
            body.get("Nodes").get("items").forEach(n -> names.add(n.get("metadata").get("name").asString()));
        }
        return names;
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.propertyNames().forEach(names::add);
        return names;
    }
}
