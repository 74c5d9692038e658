package dev.makeroom.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Real HTTP calls to a running makeroom, over HTTP/1.1 as the kube-scheduler makes them. */
public final class ExtenderClient {

    // HTTP/1.1 only: the JDK client otherwise offers an h2c upgrade on each new plain connection,
    // which no scheduler does
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public ExtenderClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    public HttpResponse<String> post(String path, String body) {
        return post(path, "application/json", body);
    }

    public HttpResponse<String> post(String path, String contentType, String body) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", contentType == null ? "application/json" : contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body)).build());
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET().build());
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
