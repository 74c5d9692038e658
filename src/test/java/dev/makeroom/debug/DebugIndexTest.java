package dev.makeroom.debug;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** GET /debug lists the debug API's routes with what each answers, and every route it lists is served. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class DebugIndexTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void the_index_lists_every_route_and_each_is_served() {
        HttpResponse<String> index = new ExtenderClient(managementPort).get("/debug");
        assertThat(index.statusCode()).isEqualTo(200);
        JsonNode routes = Json.parse(index.body());
        List<String> listed = new ArrayList<>();
        for (JsonNode route : routes) {
            assertThat(route.get("what").asString()).as(route.toString()).isNotBlank();
            listed.add(route.get("method").asString() + " " + route.get("path").asString());
        }
        assertThat(listed).contains("GET /debug/decisions", "GET /debug/nodes/{name}", "POST /debug/simulate",
                "GET /debug/rescheduler", "POST /debug/rescheduler/plan");
        // what a path no route serves answers: a route listed must answer something else (its own 404 for
        // a name it does not know, such as a queue where none is configured, is an answer)
        String unrouted = new ExtenderClient(managementPort).get("/debug/no-such-route").body();
        for (String route : listed) {
            String path = route.substring(route.indexOf(' ') + 1).replace("{name}", "node-a");
            HttpResponse<String> answer = route.startsWith("GET ") ? new ExtenderClient(managementPort).get(path)
                    : new ExtenderClient(managementPort).post(path, "application/json", "{}");
            assertThat(answer.statusCode()).as(route + ": " + answer.body()).isLessThan(500);
            assertThat(answer.body()).as(route).isNotEqualTo(unrouted.replace("/debug/no-such-route", path));
        }
    }
}
