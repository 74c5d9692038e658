package dev.makeroom.web;

import dev.makeroom.support.FreePort;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With an API server that cannot be reached the view never syncs: makeroom stays up and live,
 * reports not ready, fails open on filter, scores zeros and preempts nothing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"makeroom.cluster.source=kubernetes", "makeroom.cluster.config-map-namespace=makeroom-system"})
class NotReadyTest {

    @TestConfiguration
    static class UnreachableApi {
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient() throws IOException {
            int closedPort = FreePort.next(); // nothing listens there
            return new KubernetesClientBuilder().withHttpClientFactory(new JdkHttpClientFactory())
                    .withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + closedPort)
                            .withRequestTimeout(1000).withConnectionTimeout(1000).build()).build();
        }
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private String body(String name) throws IOException {
        return Files.readString(Path.of("examples/requests/" + name + ".json"));
    }

    @Test
    void readiness_is_out_of_service_while_liveness_is_up() {
        ExtenderClient client = new ExtenderClient(managementPort);
        HttpResponse<String> readiness = client.get("/actuator/health/readiness");
        assertThat(readiness.statusCode()).isEqualTo(503);
        assertThat(Json.parse(readiness.body()).get("status").asString()).isEqualTo("OUT_OF_SERVICE");
        assertThat(client.get("/actuator/health/liveness").statusCode()).isEqualTo(200);
    }

    @Test
    void filter_fails_open_prioritize_scores_zero_and_preempt_answers_nothing() throws IOException {
        ExtenderClient client = new ExtenderClient(port);

        var filter = Json.parse(client.post("/scheduler/filter", body("filter")).body());
        assertThat(filter.get("NodeNames").size()).isEqualTo(4);
        assertThat(filter.get("FailedNodes").size()).isZero();

        var scores = Json.parse(client.post("/scheduler/prioritize", body("prioritize")).body());
        assertThat(scores.size()).isEqualTo(4);
        scores.forEach(s -> assertThat(s.get("Score").asInt()).isZero());

        HttpResponse<String> preempt = client.post("/scheduler/preempt", body("preempt"));
        assertThat(preempt.statusCode()).isEqualTo(200);
        assertThat(preempt.body()).isEqualTo("{\"NodeNameToMetaVictims\":{}}");
    }

    @Test
    void bad_input_is_still_rejected_while_not_ready() {
        HttpResponse<String> response = new ExtenderClient(port).post("/scheduler/preempt", "{}");
        assertThat(response.statusCode()).isEqualTo(400);
    }
}
