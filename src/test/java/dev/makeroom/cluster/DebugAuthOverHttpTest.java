package dev.makeroom.cluster;

import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.context.annotation.Bean;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * makeroom with {@code makeroom.debug.auth} on, over HTTP, its reviews answered by a mock API server:
 * the debug routes answer only callers the API authorizes; health and metrics stay open.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "makeroom.debug.auth=true")
class DebugAuthOverHttpTest {

    private static KubernetesMockServer server;

    @TestConfiguration
    static class ReviewingCluster {
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient() {
            return MockApiClients.clientFor(server);
        }
    }

    @BeforeAll
    static void serve() {
        server = ReviewingApi.serve(false);
    }

    @AfterAll
    static void stop() {
        MockServers.destroy(server);
    }

    @LocalManagementPort
    int managementPort;

    private HttpResponse<String> call(String method, String path, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + path))
                .method(method, method.equals("POST") ? HttpRequest.BodyPublishers.ofString("{}")
                        : HttpRequest.BodyPublishers.noBody()).header("Content-Type", "application/json");
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void only_callers_the_api_authorizes_reach_the_debug_api() throws Exception {
        HttpResponse<String> anonymous = call("GET", "/debug/nodes", null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).contains("Bearer");
        assertThat(anonymous.body()).contains("bearer token");
        assertThat(call("GET", "/debug/nodes", "stolen").statusCode()).isEqualTo(401);
        HttpResponse<String> bob = call("GET", "/debug/rescheduler", "bob-token");
        assertThat(bob.statusCode()).isEqualTo(403);
        assertThat(bob.body()).contains("bob may not get /debug/rescheduler");
        assertThat(call("GET", "/debug/nodes", "alice-token").statusCode()).isEqualTo(200);
        assertThat(call("POST", "/debug/rescheduler/plan", "alice-token").statusCode()).isEqualTo(200);
    }

    @Test
    void health_and_metrics_stay_open() throws Exception {
        assertThat(call("GET", "/actuator/health/liveness", null).statusCode()).isEqualTo(200);
        assertThat(call("GET", "/actuator/prometheus", null).statusCode()).isEqualTo(200);
    }
}
