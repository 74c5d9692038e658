package dev.makeroom.web;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Fixtures;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.BeforeEach;
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

/** Replays the real kube-scheduler's requests of one fixture folder against makeroom over HTTP. */
abstract class FixtureReplaySupport {

    @LocalServerPort
    int port;

    ExtenderClient client;

    abstract String folder();

    @BeforeEach
    void connect() {
        client = new ExtenderClient(port);
    }

    ClusterSnapshot cluster() {
        return Fixtures.cluster(folder(), "cluster-at-preempt.json");
    }

    /** The node the request's pod is already bound to in the captured cluster state. */
    String homeOfPodIn(String requestFile) {
        String uid = request(folder(), requestFile).get("Pod").get("metadata").get("uid").asString();
        return cluster().pod(uid).nodeName();
    }

    JsonNode call(String verb, String requestFile) {
        HttpResponse<String> response = client.post("/scheduler/" + verb, Fixtures.read(folder(), requestFile));
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(response.headers().firstValueAsLong("Content-Length"))
                .hasValue(response.body().getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        return Json.parse(response.body());
    }

    static JsonNode request(String folder, String file) {
        return Json.parse(Fixtures.read(folder, file));
    }

    static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(n -> names.add(n.asString()));
        return names;
    }

    static List<String> fieldNames(JsonNode object) {
        return new ArrayList<>(object.propertyNames());
    }

    /** The all-calls requests of one verb, in call order. */
    List<String> allCalls(String verb) {
        try (Stream<Path> files = Files.list(Fixtures.file(folder(), "all-calls"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(verb + "-") && !n.contains("response"))
                    .sorted().map(n -> "all-calls/" + n).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
