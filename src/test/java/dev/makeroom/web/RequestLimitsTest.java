package dev.makeroom.web;

import dev.makeroom.support.Json;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {"makeroom.web.max-request-size=4KB", "makeroom.web.socket-buffer=96KB"})
class RequestLimitsTest {

    @LocalServerPort
    int port;

    @Autowired
    ServletWebServerApplicationContext context;

    private final HttpClient http = HttpClient.newHttpClient();

    private static String bodyOf(int bytes) {
        String pad = "x".repeat(Math.max(0, bytes - 40));
        return "{\"Pod\":{\"metadata\":{\"name\":\"" + pad + "\"}}}";
    }

    private HttpResponse<String> post(HttpRequest.BodyPublisher body) throws Exception {
        return post("filter", body);
    }

    private HttpResponse<String> post(String verb, HttpRequest.BodyPublisher body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/scheduler/" + verb))
                .header("Content-Type", "application/json").POST(body).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void a_declared_oversized_body_is_answered_413_without_being_read() throws Exception {
        HttpResponse<String> response = post(HttpRequest.BodyPublishers.ofString(bodyOf(8 * 1024)));

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(Json.parse(response.body()).get("Error").asString()).contains("larger than the limit of 4096 bytes");
    }

    @Test
    void a_streamed_body_that_grows_past_the_limit_is_answered_413() throws Exception {
        byte[] body = bodyOf(8 * 1024).getBytes(StandardCharsets.UTF_8);
        // no Content-Length: sent chunked, so only counting while reading can catch it
        HttpResponse<String> response = post(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)));

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(Json.parse(response.body()).get("Error").asString()).contains("larger than the limit");
    }

    /** The preempt verb reads its body as a stream, not through Spring: the limit holds there too. */
    @Test
    void a_streamed_preempt_body_that_grows_past_the_limit_is_answered_413() throws Exception {
        byte[] body = bodyOf(8 * 1024).getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> response = post("preempt",
                HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)));

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(Json.parse(response.body()).get("Error").asString()).contains("larger than the limit of 4096 bytes");
    }

    @Test
    void a_preempt_body_under_the_limit_is_read_as_usual() throws Exception {
        HttpResponse<String> response = post("preempt",
                HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bodyOf(2 * 1024)
                        .getBytes(StandardCharsets.UTF_8))));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Json.parse(response.body()).get("Error").asString())
                .isEqualTo("neither NodeNameToVictims nor NodeNameToMetaVictims is given");
    }

    @Test
    void a_body_under_the_limit_is_read_as_usual() throws Exception {
        HttpResponse<String> response = post(HttpRequest.BodyPublishers.ofString(bodyOf(2 * 1024)));

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Json.parse(response.body()).get("Error").asString()).isEqualTo("neither NodeNames nor Nodes.items is given");
    }

    @Test
    void the_extender_port_reads_and_writes_through_socket_buffers_of_the_configured_size() {
        Connector connector = ((TomcatWebServer) context.getWebServer()).getTomcat().getConnector();

        assertThat(connector.getLocalPort()).isEqualTo(port);
        assertThat(connector.getProperty("socket.appReadBufSize")).hasToString(Integer.toString(96 * 1024));
        assertThat(connector.getProperty("socket.appWriteBufSize")).hasToString(Integer.toString(96 * 1024));
    }
}
