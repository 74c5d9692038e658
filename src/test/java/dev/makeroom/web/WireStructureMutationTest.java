package dev.makeroom.web;

import dev.makeroom.MakeroomApplication;
import dev.makeroom.support.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every real kube-scheduler capture, edited once at every JSON path: the value replaced by null, by a
 * value of another type, and (in arrays) a null element inserted. Each body goes to its verb on a
 * makeroom that holds the capture's cluster. No answer may be a 5xx, and a 400 must name the field
 * (the edited path or one of its ancestors below the top level).
 */
class WireStructureMutationTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path FIXTURES = Path.of("src/test/resources/fixtures/kube-scheduler-v1.26");

    /** One edit of a body: where, what, and the edited body. */
    record Edit(String path, String what, String body) {
    }

    @ParameterizedTest
    @ValueSource(strings = {"cache-capable", "cache-capable-pdb", "full-objects"})
    void no_single_edit_of_a_capture_gets_a_5xx_and_every_400_names_the_field(String folder) throws Exception {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(MakeroomApplication.class).run(
                "--server.port=0", "--management.server.port=0", "--logging.level.root=WARN",
                "--makeroom.cluster.snapshot=" + FIXTURES.resolve(folder).resolve("cluster-at-preempt.json"))) {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<String> failures = new ArrayList<>();
            int sent = 0;
            int rejected = 0;
            for (Path request : requests(folder)) {
                String verb = request.getFileName().toString().replaceAll("-.*", "");
                for (Edit edit : edits(Files.readString(request))) {
                    HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                                    URI.create("http://127.0.0.1:" + port + "/scheduler/" + verb))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(edit.body())).build(),
                            HttpResponse.BodyHandlers.ofString());
                    sent++;
                    String where = request.getFileName() + " " + edit.path() + " " + edit.what();
                    if (response.statusCode() >= 500) {
                        failures.add(where + ": " + response.statusCode() + " " + response.body());
                    } else if (response.statusCode() == 400) {
                        rejected++;
                        String error = Json.parse(response.body()).path("Error").asString();
                        if (!namesTheField(error, edit.path())) {
                            failures.add(where + ": 400 without the field: " + error);
                        }
                    } else {
                        assertThat(response.statusCode()).as(where).isEqualTo(200);
                    }
                }
            }
            System.out.printf("%s: %d edited bodies, %d answered 400%n", folder, sent, rejected);
            assertThat(failures).as(failures.size() + " of " + sent + " edits").isEmpty();
            assertThat(rejected).as("the edits reach the validation").isPositive();
        }
    }

    /** The error names the edited path or an ancestor of it below the top-level key. */
    static boolean namesTheField(String error, String path) {
        for (String prefix = path; prefix.contains(".") || prefix.contains("["); prefix = parent(prefix)) {
            if (error.contains(prefix)) {
                return true;
            }
        }
        return !path.contains(".") && !path.contains("[") && error.contains(path);
    }

    private static String parent(String path) {
        int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        return path.substring(0, cut);
    }

    private static List<Path> requests(String folder) throws IOException {
        try (Stream<Path> files = Files.list(FIXTURES.resolve(folder))) {
            return files.filter(p -> p.getFileName().toString().matches("(filter|prioritize|preempt).*-request\\.json"))
                    .sorted().toList();
        }
    }

    static List<Edit> edits(String body) {
        List<Edit> edits = new ArrayList<>();
        JsonNode root = JSON.readTree(body);
        collect(root, "", "", root, edits);
        return edits;
    }

    /** Edits at every value below {@code node}, shown as {@code path} and found by the JSON pointer {@code at}. */
    private static void collect(JsonNode node, String path, String at, JsonNode root, List<Edit> edits) {
        if (node.isObject()) {
            for (String key : node.propertyNames()) {
                String child = path.isEmpty() ? key : path + "." + key;
                JsonNode value = node.get(key);
                edits.add(edit(root, at, child, "null", parent -> ((ObjectNode) parent).putNull(key)));
                edits.add(edit(root, at, child, "another type", parent -> ((ObjectNode) parent).set(key, otherType(value))));
                collect(value, child, at + "/" + key.replace("~", "~0").replace("/", "~1"), root, edits);
            }
        } else if (node.isArray()) {
            edits.add(edit(root, at, path + "[0]", "null element inserted", array -> ((ArrayNode) array).insertNull(0)));
            for (int i = 0; i < node.size(); i++) {
                int index = i;
                String child = path + "[" + i + "]";
                edits.add(edit(root, at, child, "null", array -> ((ArrayNode) array).setNull(index)));
                edits.add(edit(root, at, child, "another type",
                        array -> ((ArrayNode) array).set(index, otherType(node.get(index)))));
                collect(node.get(i), child, at + "/" + i, root, edits);
            }
        }
    }

    /** Applies {@code change} to the container at pointer {@code at} of a copy of {@code root}. */
    private static Edit edit(JsonNode root, String at, String path, String what, Consumer<JsonNode> change) {
        JsonNode copy = root.deepCopy();
        change.accept(copy.at(at));
        return new Edit(path, what, JSON.writeValueAsString(copy));
    }

    private static JsonNode otherType(JsonNode value) {
        if (value.isString()) {
            return JSON.getNodeFactory().numberNode(12345);
        }
        if (value.isNumber() || value.isBoolean()) {
            return JSON.getNodeFactory().stringNode("not-a-" + (value.isNumber() ? "number" : "boolean"));
        }
        if (value.isArray()) {
            return JSON.createObjectNode().put("unexpected", "object");
        }
        if (value.isObject()) {
            return JSON.createArrayNode().add("unexpected array");
        }
        return JSON.getNodeFactory().stringNode("was null");
    }
}
