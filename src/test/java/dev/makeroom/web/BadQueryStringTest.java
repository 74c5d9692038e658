package dev.makeroom.web;

import dev.makeroom.support.Json;
import dev.makeroom.support.RawHttp;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A query string that is not valid percent-encoded UTF-8 is a 400 with a JSON error on every endpoint of
 * both ports (Tomcat parses parameters lazily and threw, which answered 500), sent as raw HTTP: Java's
 * own clients refuse to build such a URI. A good query string still reaches its endpoint.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class BadQueryStringTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private static final List<String> BAD = List.of("pod=%zz", "pod=%", "x=%4", "a=%ff%fe", "name=%C3%28");

    @Test
    void every_endpoint_of_both_ports_answers_a_bad_query_string_400_in_its_ports_error_shape() throws IOException {
        for (String query : BAD) {
            for (String request : List.of("POST /scheduler/filter", "POST /scheduler/prioritize", "POST /scheduler/preempt",
                    "GET /no/such/path")) {
                assertBadRequest(port, request, query, "Error");
            }
            for (String request : List.of("GET /debug/decisions", "POST /debug/rescheduler/plan", "GET /debug/nodes",
                    "GET /actuator/health", "GET /actuator/prometheus")) {
                assertBadRequest(managementPort, request, query, "error");
            }
        }
    }

    @Test
    void a_good_query_string_still_reaches_its_endpoint() throws IOException {
        RawHttp.Answer answer = send(managementPort, "GET /debug/decisions", "pod=default%2Fcritical-job");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(Json.parse(answer.body()).isArray()).isTrue();
    }

    private static void assertBadRequest(int port, String request, String query, String key) throws IOException {
        RawHttp.Answer answer = send(port, request, query);
        assertThat(answer.status()).as("%s?%s", request, query).isEqualTo(400);
        JsonNode error = Json.parse(answer.body());
        assertThat(error.get(key).asString()).as("%s?%s", request, query).startsWith("the query string");
    }

    /** The request with a body of {} as JSON. */
    private static RawHttp.Answer send(int port, String methodAndPath, String query) throws IOException {
        return RawHttp.send(port, methodAndPath + "?" + query, "Content-Type: application/json\r\n",
                "{}".getBytes(StandardCharsets.US_ASCII));
    }
}
