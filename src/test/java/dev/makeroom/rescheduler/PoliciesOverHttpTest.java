package dev.makeroom.rescheduler;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import dev.makeroom.support.ReadmeExample;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The placement-fixing policies' worked example over HTTP: makeroom on {@code examples/policies-cluster.yaml}
 * with the rescheduler on and no document of its own, asked what a round would do under
 * {@code examples/policies.yaml}, answers what the README prints; the document in force is untouched.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.snapshot=examples/policies-cluster.yaml", "makeroom.rescheduler.enabled=true"})
class PoliciesOverHttpTest {

    static final String DOCUMENT = "examples/policies.yaml";

    @LocalManagementPort
    int managementPort;

    @Test
    void the_readmes_policies_example_answers_as_printed() throws Exception {
        List<ReadmeExample> examples = ReadmeExample.all().stream()
                .filter(example -> example.command().contains(DOCUMENT)).toList();
        assertThat(examples).as("the README shows the policies example").hasSize(1);
        HttpResponse<String> response = examples.get(0).replay(0, managementPort);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(ReadmeExample.steady(response.body())).isEqualTo(examples.get(0).expected());
        // what the README says the example shows: one move per policy at least, and the scope kept
        assertThat(response.body()).contains("\"policy\":\"taints\"").contains("\"policy\":\"spread\"")
                .contains("\"policy\":\"duplicates\"").contains("\"category\":\"OUT_OF_SCOPE\"")
                .doesNotContain("\"pod\":\"kube-system/coredns-1\",\"from\"");
    }

    @Test
    void a_tried_document_changes_nothing_and_a_bad_one_is_refused_by_its_key() throws Exception {
        ExtenderClient management = new ExtenderClient(managementPort);
        management.post("/debug/rescheduler/plan", "application/yaml", Files.readString(Path.of(DOCUMENT)));
        HttpResponse<String> inForce = management.post("/debug/rescheduler/plan", null, "");
        assertThat(inForce.body()).as("the defaults in force: only defragmentation, nothing pending")
                .contains("\"moves\":[]").contains("\"policies\":[\"defragment\"]")
                .contains("\"nothingMoved\":\"the policies on (defragment) found nothing out of place\"");
        HttpResponse<String> none = management.post("/debug/rescheduler/plan", "application/yaml",
                "policies: {defragment: {enabled: false}}");
        assertThat(none.body()).as("a document that turns everything off says so").contains("\"policies\":[]")
                .contains("\"nothingMoved\":\"no policy is on: the policies document turns none on\"");
        HttpResponse<String> bad = management.post("/debug/rescheduler/plan", "application/yaml",
                "policies: {spread: {enabled: sure}}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("policies.spread.enabled must be true or false");
    }

    /** JSON is YAML: the document is read whichever the Content-Type names; a body of another type is refused, never ignored. */
    @Test
    void a_document_in_json_plans_as_the_same_in_yaml_and_any_other_body_is_refused() throws Exception {
        ExtenderClient management = new ExtenderClient(managementPort);
        String yaml = Files.readString(Path.of(DOCUMENT));
        String json = Json.parse(tools.jackson.databind.json.JsonMapper.builder().build().writeValueAsString(
                new org.yaml.snakeyaml.Yaml().load(yaml))).toString();

        HttpResponse<String> asYaml = management.post("/debug/rescheduler/plan", "application/yaml", yaml);
        HttpResponse<String> asJson = management.post("/debug/rescheduler/plan", "application/json", json);
        assertThat(asJson.statusCode()).isEqualTo(200);
        assertThat(ReadmeExample.steady(asJson.body())).isEqualTo(ReadmeExample.steady(asYaml.body()));

        HttpResponse<String> form = management.post("/debug/rescheduler/plan", "application/x-www-form-urlencoded", yaml);
        assertThat(form.statusCode()).as("curl's default type").isEqualTo(415);
        assertThat(form.body()).contains("send the policies document as application/yaml or application/json");
        HttpResponse<String> untyped = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://localhost:" + managementPort + "/debug/rescheduler/plan")).POST(HttpRequest.BodyPublishers.ofString(yaml))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(ReadmeExample.steady(untyped.body())).as("no type (kubectl create --raw): read as YAML")
                .isEqualTo(ReadmeExample.steady(asYaml.body()));
        HttpResponse<String> typo = management.post("/debug/rescheduler/plan", "application/json", "{\"polices\": {}}");
        assertThat(typo.statusCode()).as("a misspelt key is named, not ignored").isEqualTo(400);
        HttpResponse<String> withPod = management.post("/debug/rescheduler/plan?pod=batch/report", "application/json", "{}");
        assertThat(withPod.statusCode()).isEqualTo(400);
        assertThat(withPod.body()).contains("send no body with it");
    }
}
