package dev.makeroom.cluster;

import dev.makeroom.support.AggregatedMakeroom;
import dev.makeroom.support.TestPki;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The debug API as the aggregated API debug.makeroom.dev/v1, over real TLS: makeroom serves it on
 * its aggregation port with a serving certificate of its own, believes the user named in
 * X-Remote-User only from a client holding the front-proxy certificate the (mock) API server
 * publishes in kube-system/extension-apiserver-authentication, then reviews that user as it reviews
 * a bearer token's; errors are Kubernetes Status objects.
 */
class AggregatedDebugApiTest extends AggregatedMakeroom {

    /** A request to the aggregation port, as the API server's front proxy makes it (or a stranger with {@code presented}). */
    private static HttpResponse<String> proxied(TestPki.Issued presented, String method, String path, String user,
                                                String body) throws Exception {
        SSLContext tls = TestPki.Issued.client(presented, SERVING_CA.certificate());
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://localhost:" + PORT + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (user != null) {
            request.header("X-Remote-User", user).header("X-Remote-Group", "system:authenticated");
        }
        return HttpClient.newBuilder().sslContext(tls).build().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void the_front_proxy_reaches_the_debug_routes_as_the_user_it_names() throws Exception {
        HttpResponse<String> nodes = proxied(FRONT_PROXY, "GET", "/apis/debug.makeroom.dev/v1/nodes", "alice", null);
        assertThat(nodes.statusCode()).as(nodes.body()).isEqualTo(200);
        String direct = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        "http://localhost:" + managementPort + "/debug/nodes")).header("Authorization", "Bearer alice-token")
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(nodes.body()).as("the same route's answer").isEqualTo(direct);

        HttpResponse<String> why = proxied(FRONT_PROXY, "GET", "/apis/debug.makeroom.dev/v1/why?pod=default/critical-job",
                "alice", null);
        assertThat(why.statusCode()).isEqualTo(200);
        assertThat(why.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));
        assertThat(why.body()).startsWith("default/critical-job: priority").contains("nodes are available").contains("preemption:");

        HttpResponse<String> simulated = proxied(FRONT_PROXY, "POST", "/apis/debug.makeroom.dev/v1/simulate", "alice",
                "{\"pod\": \"default/critical-job\"}");
        assertThat(simulated.statusCode()).isEqualTo(200);
        assertThat(simulated.body()).contains("\"pod\":\"default/critical-job\"");
    }

    @Test
    void the_user_is_reviewed_and_refusals_are_kubernetes_status_objects() throws Exception {
        HttpResponse<String> bob = proxied(FRONT_PROXY, "GET", "/apis/debug.makeroom.dev/v1/nodes", "bob", null);
        assertThat(bob.statusCode()).isEqualTo(403);
        assertThat(bob.body()).contains("\"kind\":\"Status\"").contains("\"reason\":\"Forbidden\"")
                .contains("bob may not get /debug/nodes");
        HttpResponse<String> missing = proxied(FRONT_PROXY, "GET", "/apis/debug.makeroom.dev/v1/why?pod=default/nobody",
                "alice", null);
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.body()).contains("\"reason\":\"NotFound\"").contains("no pod default/nobody");
        HttpResponse<String> nameless = proxied(FRONT_PROXY, "GET", "/apis/debug.makeroom.dev/v1/nodes", null, null);
        assertThat(nameless.statusCode()).isEqualTo(401);
        assertThat(nameless.body()).contains("named no user");
    }

    @Test
    void only_the_front_proxy_is_believed() throws Exception {
        HttpResponse<String> noCertificate = proxied(null, "GET", "/apis/debug.makeroom.dev/v1/nodes", "alice", null);
        assertThat(noCertificate.statusCode()).isEqualTo(401);
        assertThat(noCertificate.body()).contains("\"reason\":\"Unauthorized\"").contains("no client certificate");

        TestPki.Issued impostor = TestPki.authority("front-proxy-ca").issue("front-proxy-client", false);
        HttpResponse<String> otherCa = proxied(impostor, "GET", "/apis/debug.makeroom.dev/v1/nodes", "alice", null);
        assertThat(otherCa.statusCode()).isEqualTo(401);
        assertThat(otherCa.body()).contains("not the API server's front proxy's");

        TestPki.Issued wrongName = FRONT_PROXY_CA.issue("kubelet", false);
        HttpResponse<String> otherName = proxied(wrongName, "GET", "/apis/debug.makeroom.dev/v1/nodes", "alice", null);
        assertThat(otherName.statusCode()).isEqualTo(401);
        assertThat(otherName.body()).contains("common name kubelet is not one the API server allows");

        // the headers mean nothing on the plain management port
        HttpResponse<String> plain = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        "http://localhost:" + managementPort + "/debug/nodes")).header("X-Remote-User", "alice").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(plain.statusCode()).isEqualTo(401);
    }

    @Test
    void discovery_is_answered_and_nothing_but_the_group_is_served() throws Exception {
        HttpResponse<String> version = proxied(FRONT_PROXY, "GET", "/apis/debug.makeroom.dev/v1", null, null);
        assertThat(version.statusCode()).isEqualTo(200);
        assertThat(version.body()).contains("\"kind\":\"APIResourceList\"").contains("\"groupVersion\":\"debug.makeroom.dev/v1\"");
        assertThat(proxied(FRONT_PROXY, "GET", "/apis", null, null).body()).contains("\"kind\":\"APIGroupList\"");
        assertThat(proxied(FRONT_PROXY, "GET", "/apis/debug.makeroom.dev", null, null).body()).contains("\"preferredVersion\"");

        for (String path : new String[]{"/actuator/health", "/debug/nodes", "/apis/debug.makeroom.dev/v1/../../../actuator/prometheus",
                "/apis/debug.makeroom.dev/v1/%2e%2e/%2e%2e/actuator/prometheus", "/apis/debug.makeroom.dev/v2/nodes"}) {
            HttpResponse<String> outside = proxied(FRONT_PROXY, "GET", path, "alice", null);
            assertThat(outside.statusCode()).as(path).isIn(400, 404);
            assertThat(outside.body()).as(path).doesNotContain("jvm_").doesNotContain("\"allocatable\"");
        }
        HttpResponse<String> badQuery = proxied(FRONT_PROXY, "GET", "/apis/debug.makeroom.dev/v1/decisions?pod=%FF", "alice", null); // not UTF-8
        assertThat(badQuery.statusCode()).isEqualTo(400);
        assertThat(badQuery.body()).contains("\"kind\":\"Status\"").contains("\"reason\":\"BadRequest\"");
        HttpResponse<String> noRoute = proxied(FRONT_PROXY, "GET", "/apis/debug.makeroom.dev/v1/nope", "alice", null);
        assertThat(noRoute.statusCode()).isEqualTo(404);
        assertThat(noRoute.body()).contains("\"kind\":\"Status\"");
    }
}
