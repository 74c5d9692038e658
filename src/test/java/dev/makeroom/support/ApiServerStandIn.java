package dev.makeroom.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;

import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What the kube-apiserver does for an aggregated API, and nothing else, for tests that run the real
 * kubectl: it authenticates the caller's bearer token ({@code <user>-token} is that user), then
 * proxies {@code /apis/debug.makeroom.dev/...} to makeroom's aggregation port over TLS with the
 * front-proxy client certificate, naming the user in {@code X-Remote-User}, as the aggregation layer
 * does; {@code /version} is open, any other path is a 404 Status. HTTPS towards kubectl too, with a
 * certificate of {@code ca}'s (kubectl sends no token over plain HTTP).
 * (The live check against a real kube-apiserver is in docs/kubectl-plugin.md.)
 */
public final class ApiServerStandIn implements AutoCloseable {

    private final HttpsServer server;
    private final String caPem;
    private final HttpClient proxy;
    private final int makeroomPort;
    private final List<String> proxied = new CopyOnWriteArrayList<>();

    public ApiServerStandIn(TestPki.Issued ca, TestPki.Issued frontProxy, X509Certificate makeroomCa, int makeroomPort)
            throws Exception {
        this.makeroomPort = makeroomPort;
        this.caPem = ca.certificatePem();
        this.proxy = HttpClient.newBuilder().sslContext(TestPki.Issued.client(frontProxy, makeroomCa)).build();
        this.server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ca.issue("kube-apiserver", true).server()));
        server.createContext("/", this::handle);
        server.start();
    }

    /** The address to put in a kubeconfig. */
    public String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every method and path (with its query) proxied to makeroom, in order. */
    public List<String> proxied() {
        return List.copyOf(proxied);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            String path = exchange.getRequestURI().getRawPath();
            String query = exchange.getRequestURI().getRawQuery();
            if (path.equals("/version")) { // open, as on an API server; some kubectl builds ask it first
                answer(exchange, 200, "application/json", "{\"major\":\"1\",\"minor\":\"36\",\"gitVersion\":\"v1.36.0\"}"
                        .getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (authorization == null || !authorization.startsWith("Bearer ") || !authorization.endsWith("-token")) {
                answer(exchange, 401, "application/json", status(401, "Unauthorized", "Unauthorized"));
                return;
            }
            if (!path.startsWith("/apis/debug.makeroom.dev/")) {
                answer(exchange, 404, "application/json", status(404, "NotFound", "the server could not find the requested resource"));
                return;
            }
            String user = authorization.substring(7, authorization.length() - "-token".length());
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            proxied.add(exchange.getRequestMethod() + " " + path + (query == null ? "" : "?" + query));
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://localhost:" + makeroomPort + path
                            + (query == null ? "" : "?" + query)))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body))
                    .header("X-Remote-User", user).header("X-Remote-Group", "system:authenticated");
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            if (type != null) {
                request.header("Content-Type", type);
            }
            HttpResponse<byte[]> response = proxy.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            answer(exchange, response.statusCode(), response.headers().firstValue("Content-Type").orElse("application/json"),
                    response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            answer(exchange, 502, "application/json", status(502, "InternalError", e.toString()));
        }
    }

    private static byte[] status(int code, String reason, String message) {
        return ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"" + message.replace("\"", "'")
                + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static void answer(HttpExchange exchange, int code, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().put("Content-Type", List.of(type));
        exchange.sendResponseHeaders(code, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /** A kubeconfig for {@code user} (token {@code <user>-token}) at this stand-in. */
    public String kubeconfig(String user) {
        return String.join("\n", "apiVersion: v1", "kind: Config", "clusters:", "- name: standin", "  cluster:",
                "    server: " + url(), "    certificate-authority-data: "
                        + Base64.getEncoder().encodeToString(caPem.getBytes(StandardCharsets.US_ASCII)), "users:", "- name: " + user, "  user:", "    token: " + user + "-token", "contexts:",
                "- name: standin", "  context:", "    cluster: standin", "    user: " + user, "current-context: standin", "");
    }

}
