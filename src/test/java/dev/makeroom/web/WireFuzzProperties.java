package dev.makeroom.web;

import dev.makeroom.MakeroomApplication;
import dev.makeroom.support.Json;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import dev.makeroom.support.property.Tally;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ContainerNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mutated real bodies (the kube-scheduler captures and the README's examples) against every
 * extender endpoint of a running makeroom: never a 5xx, never a hang, every error JSON with a message.
 */
class WireFuzzProperties {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final List<String> SEEDS = seedBodies();
    private static ConfigurableApplicationContext app;
    private static HttpClient http;
    private static int port;

    enum Mutation {
        DROP_FIELD, CHANGE_TYPE, HUGE_NUMBER, NEGATIVE_QUANTITY, UNICODE_NAME, DEEP_NESTING, DUPLICATE_KEY, TRUNCATE,
        NONE
    }

    @BeforeAll
    static void start() {
        app = new SpringApplicationBuilder(MakeroomApplication.class).run("--server.port=0", "--logging.level.root=WARN");
        port = ((WebServerApplicationContext) app).getWebServer().getPort();
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    private static List<String> seedBodies() {
        try (Stream<Path> fixtures = Files.walk(Path.of("src/test/resources/fixtures/kube-scheduler-v1.26"));
             Stream<Path> examples = Files.list(Path.of("examples/requests"))) {
            List<String> bodies = new ArrayList<>();
            Stream.concat(fixtures, examples)
                    .filter(p -> p.getFileName().toString().matches("(filter|prioritize|preempt).*\\.json"))
                    .filter(p -> !p.toString().contains("response") && !p.toString().contains("all-calls"))
                    .sorted().forEach(p -> bodies.add(read(p)));
            return bodies;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Provide
    Gen<String> verbs() {
        return Gens.of("filter", "prioritize", "preempt");
    }

    @Provide
    Gen<Integer> seedIndex() {
        return Gens.integers().between(0, SEEDS.size() - 1);
    }

    @Property(tries = 300)
    void mutated_bodies_never_get_a_5xx_or_a_non_json_answer(@ForAll("verbs") String verb,
                                                             @ForAll("seedIndex") int seed,
                                                             @ForAll Mutation mutation, @ForAll long randomness)
            throws Exception {
        String body = mutate(SEEDS.get(seed), mutation, new Random(randomness));

        HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/scheduler/" + verb))
                .header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).as(response.body()).isIn(200, 400, 413);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        JsonNode answer = Json.parse(response.body());
        if (response.statusCode() != 200) {
            assertThat(answer.path("Error").asString()).isNotBlank();
        }
        // the mutations must really produce both accepted and rejected bodies
        Tally.collect(response.statusCode());
        Tally.coverage(coverage -> {
            coverage.check(200).percentage(p -> p > 10);
            coverage.check(400).percentage(p -> p > 10);
        });
    }

    static String mutate(String body, Mutation mutation, Random random) {
        JsonNode root = MAPPER.readTree(body);
        switch (mutation) {
            case DROP_FIELD -> withRandomObject(root, random, (o, key) -> o.remove(key));
            case CHANGE_TYPE -> withRandomObject(root, random, (o, key) -> o.set(key, randomValue(random)));
            case HUGE_NUMBER -> withRandomObject(root, random, (o, key) -> o.put(key,
                    random.nextBoolean() ? "9".repeat(400) : "1e400"));
            case NEGATIVE_QUANTITY -> replaceQuantities(root, "-" + (1 + random.nextInt(1000)));
            case UNICODE_NAME -> withRandomObject(root, random, (o, key) -> o.put(key,
                    "n\u00f6de-\u202e\uD83D\uDE80-\u0000-\u6f22" + random.nextInt()));
            case DEEP_NESTING -> {
                String deep = "[".repeat(3000) + "]".repeat(3000);
                return body.replaceFirst("\"Pod\":", "\"Pod\":" + deep + ",\"Extra\":");
            }
            case DUPLICATE_KEY -> {
                return body.replaceFirst("\\{", "{\"Pod\":{},");
            }
            case TRUNCATE -> {
                return body.substring(0, random.nextInt(Math.max(1, body.length())));
            }
            case NONE -> {
                return body;
            }
        }
        return MAPPER.writeValueAsString(root);
    }

    private interface FieldEdit {
        void apply(ObjectNode object, String key);
    }

    /** Picks a random field of a random object in the tree (walking down at random) and edits it. */
    private static void withRandomObject(JsonNode root, Random random, FieldEdit edit) {
        JsonNode node = root;
        ObjectNode owner = null;
        String key = null;
        for (int depth = 0; depth < 12 && node instanceof ContainerNode<?> && !node.isEmpty(); depth++) {
            if (node instanceof ObjectNode object) {
                List<String> keys = new ArrayList<>(object.propertyNames());
                owner = object;
                key = keys.get(random.nextInt(keys.size()));
                node = object.get(key);
            } else {
                node = node.get(random.nextInt(node.size()));
            }
            if (random.nextInt(4) == 0) {
                break;
            }
        }
        if (owner != null) {
            edit.apply(owner, key);
        }
    }

    private static JsonNode randomValue(Random random) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return switch (random.nextInt(6)) {
            case 0 -> f.numberNode(random.nextLong());
            case 1 -> f.stringNode("x" + random.nextInt());
            case 2 -> f.booleanNode(random.nextBoolean());
            case 3 -> f.nullNode();
            case 4 -> f.arrayNode().add(1).add("two");
            default -> f.objectNode().put("k", "v");
        };
    }

    private static void replaceQuantities(JsonNode node, String value) {
        if (node instanceof ObjectNode object) {
            for (String key : new ArrayList<>(object.propertyNames())) {
                JsonNode child = object.get(key);
                if ((key.equals("cpu") || key.equals("memory")) && child.isString()) {
                    object.put(key, value);
                } else {
                    replaceQuantities(child, value);
                }
            }
        } else if (node instanceof ArrayNode array) {
            array.forEach(child -> replaceQuantities(child, value));
        }
    }
}
