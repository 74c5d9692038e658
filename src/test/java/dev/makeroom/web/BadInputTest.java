package dev.makeroom.web;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Malformed requests get 400 and a JSON {@code Error}; the service keeps serving. Runs on the demo cluster. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class BadInputTest {

    private static final String POD = "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u-1\"},"
            + "\"spec\":{\"priority\":1000,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]}}";

    @LocalServerPort
    int port;

    ExtenderClient client;

    @BeforeEach
    void connect() {
        client = new ExtenderClient(port);
    }

    @ParameterizedTest(name = "{0} with {1} is rejected")
    @CsvSource(delimiter = '|', textBlock = """
            filter     | ''                                     | request body is empty
            prioritize | ''                                     | request body is empty
            preempt    | ''                                     | request body is empty
            filter     | '{"Pod": '                             | malformed JSON
            preempt    | 'not json at all'                      | malformed JSON
            filter     | '{"Pod": {"metadata":{"name":"p"}}, "NodeNames": ["a"]} trailing' | malformed JSON
            filter     | '{"NodeNames": ["node-a"]}'            | missing Pod
            preempt    | '{"NodeNameToMetaVictims": {}}'        | missing Pod
            filter     | '{"Pod": 5, "NodeNames": ["node-a"]}'  | Pod must be a JSON object
            filter     | '{"Pod": {"metadata":{"name":"p"}}, "NodeNames": 5}' | NodeNames must be an array of node names
            filter     | '{"Pod": {"metadata":{"name":"p"}}, "NodeNames": [["x"]]}' | NodeNames[0] must be a node name (a string)
            filter     | '{"Pod": {"metadata":{"name":"p"}}}'   | neither NodeNames nor Nodes.items is given
            filter     | '{"Pod": {"metadata":{"name":"p"}}, "Nodes": {"items": [{"metadata": {}}]}}' | Nodes.items[0] has no metadata.name
            filter     | '{"Pod": {"spec":{}}, "NodeNames": ["node-a"]}' | Pod.metadata.name is missing
            filter     | '{"Pod": {"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"lots"}}}]}}, "NodeNames": ["node-a"]}' | Pod.spec.containers[0].resources.requests.cpu: 'lots' is not a quantity
            filter     | '{"Pod": {"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"-1"}}}]}}, "NodeNames": ["node-a"]}' | Pod requests a negative amount of cpu
            filter     | '{"Pod": {"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","resources":{"requests":{"memory":"1e400"}}}]}}, "NodeNames": ["node-a"]}' | Pod.spec.containers[0].resources.requests.memory: '1e400' is too large
            filter     | '{"Pod": {"metadata":{"name":"p"},"spec":{"initContainers":[{"name":"i","resources":{"limits":{"cpu":"2a"}}}],"containers":[{"name":"c"}]}}, "NodeNames": ["node-a"]}' | Pod.spec.initContainers[0].resources.limits.cpu: '2a' is not a quantity
            filter     | '{"Pod": {"metadata":{"name":"p"}}, "NodeNames": ["a"], "NodeNames": ["b"]}' | malformed JSON
            filter     | '{"Pod": {"metadata":{"name":"p"},"spec":{"containers":[null]}}, "NodeNames": ["node-a"]}' | Pod.spec.containers[0] is null
            prioritize | '{"Pod": {"metadata":{"name":"p"},"spec":{"containers":[null]}}, "NodeNames": ["node-a"]}' | Pod.spec.containers[0] is null
            filter     | '{"Pod": {"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","env":[{"name":"a"},null]}]}}, "NodeNames": ["node-a"]}' | Pod.spec.containers[0].env[1] is null
            preempt    | '{"Pod": {"metadata":{"name":"p"}}}'   | neither NodeNameToVictims nor NodeNameToMetaVictims is given
            preempt    | '{"Pod": {"metadata":{"name":"p"}}, "NodeNameToMetaVictims": {"node-a": {"Pods": [{}]}}}' | NodeNameToMetaVictims.node-a.Pods[0] has no UID
            preempt    | '{"Pod": {"metadata":{"name":"p"}}, "NodeNameToVictims": {"node-a": {"Pods": [{"spec": {}}]}}}' | NodeNameToVictims.node-a.Pods[0] has no metadata.uid
            preempt    | '{"Pod": {"metadata":{"name":"p"}}, "NodeNameToMetaVictims": {"node-a": {"Pods": "x"}}}' | invalid request at NodeNameToMetaVictims.node-a.Pods
            """)
    void bad_requests_get_400_with_a_json_error(String verb, String body, String message) {
        HttpResponse<String> response = client.post("/scheduler/" + verb, body);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        JsonNode error = Json.parse(response.body());
        assertThat(error.get("Error").asString()).startsWith(message);
    }

    @Test
    void a_node_makeroom_does_not_know_yet_passes_filter_and_scores_zero() {
        HttpResponse<String> filter = client.post("/scheduler/filter",
                "{\"Pod\": " + POD + ", \"NodeNames\": [\"node-x\", \"node-d\"]}");
        assertThat(filter.statusCode()).isEqualTo(200);
        JsonNode result = Json.parse(filter.body());
        assertThat(result.get("NodeNames").get(0).asString()).isEqualTo("node-x");
        assertThat(result.get("FailedNodes").size()).isZero();

        HttpResponse<String> prioritize = client.post("/scheduler/prioritize",
                "{\"Pod\": " + POD + ", \"NodeNames\": [\"node-x\"]}");
        assertThat(Json.parse(prioritize.body()).get(0).get("Score").asInt()).isZero();
    }

    @Test
    void a_node_whose_victims_makeroom_does_not_know_is_left_out_of_the_preempt_answer() {
        String body = "{\"Pod\": " + POD + ", \"NodeNameToMetaVictims\": {"
                + "\"node-a\": {\"Pods\": [{\"UID\": \"no-such-pod\"}], \"NumPDBViolations\": 0},"
                + "\"node-c\": {\"Pods\": [{\"UID\": \"00000000-0000-4000-8000-000000001008\"}], \"NumPDBViolations\": 1}}}";

        HttpResponse<String> response = client.post("/scheduler/preempt", body);

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode answer = Json.parse(response.body()).get("NodeNameToMetaVictims");
        assertThat(answer.has("node-a")).isFalse();
        assertThat(answer.has("node-c")).isTrue();
    }

    @Test
    void keys_are_read_case_insensitively_and_unknown_fields_are_ignored() {
        HttpResponse<String> response = client.post("/scheduler/filter",
                "{\"pod\": " + POD + ", \"nodenames\": [\"node-d\"], \"SomethingNew\": {\"x\": 1}}");

        assertThat(response.statusCode()).as("a Pod or NodeNames not found is a 400").isEqualTo(200);
        assertThat(Json.parse(response.body()).get("NodeNames").get(0).asString()).isEqualTo("node-d");
    }

    @Test
    void null_label_values_are_ignored_not_a_server_error() {
        HttpResponse<String> response = client.post("/scheduler/filter",
                "{\"Pod\": {\"metadata\": {\"name\": \"p\", \"labels\": {\"app\": null}}}, \"NodeNames\": [\"node-d\"]}");

        assertThat(response.statusCode()).isEqualTo(200);
    }

    @Test
    void a_get_is_answered_405_as_json() {
        HttpResponse<String> response = client.get("/scheduler/filter");
        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(Json.parse(response.body()).get("Error").asString()).isEqualTo("use POST");
    }

    @Test
    void the_service_keeps_serving_after_bad_input() {
        client.post("/scheduler/preempt", "{{{{");
        HttpResponse<String> response = client.post("/scheduler/filter",
                "{\"Pod\": " + POD + ", \"NodeNames\": [\"node-d\"]}");
        assertThat(response.statusCode()).isEqualTo(200);
    }
}
