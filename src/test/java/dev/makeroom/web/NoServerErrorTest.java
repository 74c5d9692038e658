package dev.makeroom.web;

import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.RawHttp;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.makeroom.support.Json;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No request gets a 5xx, on either port, and every error is JSON in its port's shape ({@code {"Error": …}} on the
 * extender's, {@code {"error": …}} on the management port's): every method (and one no server knows) on every path makeroom
 * serves and some it does not, with every kind of Content-Type (none, JSON, YAML, a form, a multipart
 * one without its boundary, one that does not parse) and bodies that are JSON, empty or not UTF-8.
 * Before, a multipart Content-Type answered 500 on every path of both ports, and a Content-Type that
 * does not parse did on POST /debug/rescheduler/plan.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class NoServerErrorTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD",
            "TRACE", "FOO");
    private static final List<String> PATHS = List.of("/", "/scheduler/filter", "/scheduler/prioritize",
            "/scheduler/preempt", "/scheduler/bind", "/debug", "/debug/decisions?pod=a/b", "/debug/rescheduler",
            "/debug/rescheduler/plan", "/debug/rescheduler/plan?pod=a/b", "/debug/simulate", "/debug/nodes",
            "/actuator/health", "/actuator/prometheus", "/..%2F..%2Fetc");
    private static final List<String> TYPES = List.of("", "Content-Type: application/json\r\n",
            "Content-Type: application/yaml\r\n", "Content-Type: application/x-www-form-urlencoded\r\n",
            "Content-Type: multipart/form-data\r\n", "Content-Type: bad type\r\n");
    private static final List<byte[]> BODIES = List.of("{}".getBytes(StandardCharsets.US_ASCII), new byte[0],
            new byte[] {(byte) 0xff, (byte) 0xfe, '{'});

    @Test
    void no_method_path_content_type_or_body_gets_a_server_error_on_either_port() throws IOException {
        // health answers 503 until makeroom is ready: that is its job, not an error
        Await.until("makeroom is ready", Duration.ofSeconds(30),
                () -> new ExtenderClient(managementPort).get("/actuator/health").statusCode() == 200);
        List<String> errors = new ArrayList<>();
        int sent = 0;
        for (int on : List.of(port, managementPort)) {
            for (String method : METHODS) {
                for (String path : PATHS) {
                    for (int t = 0; t < TYPES.size(); t++) {
                        byte[] body = method.equals("GET") || method.equals("HEAD") ? new byte[0]
                                : BODIES.get((t + path.length()) % BODIES.size());
                        RawHttp.Answer answer = RawHttp.send(on, method + " " + path, TYPES.get(t), body);
                        sent++;
                        String key = on == port ? "Error" : "error"; // each port's error shape
                        if (answer.status() >= 500 || answer.status() >= 400 && !method.equals("HEAD")
                                && !isErrorOfShape(answer.body(), key)) {
                            errors.add(on + " " + method + " " + path + " [" + TYPES.get(t).trim() + "] -> "
                                    + answer.status() + " " + answer.body());
                        }
                    }
                }
            }
        }
        assertThat(sent).isEqualTo(2 * METHODS.size() * PATHS.size() * TYPES.size());
        assertThat(errors).isEmpty();
    }

    /** A JSON object whose one field is the port's error key, holding a message. */
    private static boolean isErrorOfShape(String body, String key) {
        try {
            JsonNode tree = Json.parse(body);
            return tree.isObject() && tree.size() == 1 && tree.path(key).isString() && !tree.get(key).asString().isBlank();
        } catch (RuntimeException e) {
            return false;
        }
    }
}
