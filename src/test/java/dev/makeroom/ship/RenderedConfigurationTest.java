package dev.makeroom.ship;

import dev.makeroom.MakeroomApplication;
import dev.makeroom.support.Await;
import dev.makeroom.support.FreePort;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * makeroom started with the application.yaml the chart renders (TLS and the aggregated API on), the
 * Secrets' files standing in at their mount paths: the extender port speaks HTTPS with the Secret's
 * certificate, the aggregation port with the one the chart issued for the APIService, the
 * management port plain HTTP, and the chart's probe paths answer there.
 */
class RenderedConfigurationTest {

    private static final Path TEST_SECRET = Path.of("src/test/resources/tls").toAbsolutePath();

    @Test
    void the_rendered_tls_configuration_serves_https_and_the_probes_answer(@TempDir Path configDir) throws Exception {
        Rendering rendering = Chart.render(Chart.ALL_ON);
        Container makeroom = Rendering.container(rendering.one(Deployment.class, "makeroom"));
        String secretMount = Rendering.mountPath(makeroom, "tls");
        String config = rendering.one(ConfigMap.class, "makeroom-config").getData()
                .get("application.yaml");
        assertThat(config).contains(secretMount + "/");
        // the aggregated API's Secret as the chart issued it, at its mount path
        String aggregatedMount = Rendering.mountPath(makeroom, "aggregated-tls");
        Path aggregatedSecret = Files.createDirectories(configDir.resolve("aggregated"));
        Map<String, String> issued = rendering.one(Secret.class, "makeroom-api-tls").getData();
        for (String file : List.of("tls.crt", "tls.key")) {
            Files.write(aggregatedSecret.resolve(file), Base64.getDecoder().decode(issued.get(file)));
        }
        Files.writeString(configDir.resolve("application.yaml"), config.replace(secretMount, TEST_SECRET.toString())
                .replace(aggregatedMount, aggregatedSecret.toString()));
        int aggregatedPort = FreePort.next();

        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(MakeroomApplication.class).run(
                "--spring.config.additional-location=file:" + configDir + "/",
                // free ports and the demo cluster instead of an API server; everything else as rendered
                "--server.port=0", "--management.server.port=0", "--makeroom.cluster.source=snapshot",
                "--makeroom.debug.aggregation.port=" + aggregatedPort)) {
            int server = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
            int management = Integer.parseInt(app.getEnvironment().getProperty("local.management.port"));

            HttpClient trusting = HttpClient.newBuilder().sslContext(trusting(TEST_SECRET.resolve("ca.crt")))
                    .connectTimeout(Duration.ofSeconds(5)).build();
            HttpResponse<String> filter = trusting.send(HttpRequest.newBuilder(
                            URI.create("https://localhost:" + server + "/scheduler/filter"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofFile(Path.of("examples/requests/filter.json"))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(filter.statusCode()).isEqualTo(200);
            assertThat(filter.body()).contains("\"NodeNames\":[\"node-a\",\"node-b\",\"node-c\",\"node-d\"]");

            // a client that does not trust the Secret's CA is refused
            HttpClient stranger = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            assertThatThrownBy(() -> stranger.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server
                    + "/scheduler/filter")).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                    HttpResponse.BodyHandlers.ofString())).isInstanceOf(SSLHandshakeException.class);

            // the aggregation port serves the certificate the APIService's caBundle verifies (what the
            // API server checks; the name is the Service's, so only the chain is checked from here), and a
            // client without the front proxy's certificate gets a Status
            Map<?, ?> apiService = (Map<?, ?>) new KubernetesSerialization().convertValue(
                    rendering.ofKind("APIService").get(0), Map.class).get("spec");
            X509Certificate caBundle = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
                    new ByteArrayInputStream(Base64.getDecoder().decode((String) apiService.get("caBundle"))));
            try (SSLSocket socket = (SSLSocket) trusting(caBundle).getSocketFactory().createSocket("localhost", aggregatedPort)) {
                socket.startHandshake();
                assertThat(socket.getSession().getPeerCertificates()[0].getEncoded())
                        .isEqualTo(Base64.getDecoder().decode(new String(Base64.getDecoder().decode(issued.get("tls.crt")))
                                .replaceAll("-----[A-Z ]+-----|\\s", "")));
                socket.getOutputStream().write(("GET /apis/debug.makeroom.dev/v1/nodes HTTP/1.1\r\nHost: localhost\r\n"
                        + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(answer).startsWith("HTTP/1.1 401").contains("\"kind\":\"Status\"").contains("no client certificate");
            }

            // readiness comes once the decision paths are warmed (makeroom.web.warmup), as the kubelet's polling sees it
            URI readiness = URI.create("http://localhost:" + management + makeroom.getReadinessProbe().getHttpGet().getPath());
            Await.until("the readiness probe answers 200", Duration.ofSeconds(30), () -> statusOf(stranger, readiness) == 200);
            for (Probe probe : List.of(makeroom.getLivenessProbe(), makeroom.getReadinessProbe(), makeroom.getStartupProbe())) {
                assertThat(probe.getHttpGet().getScheme()).isNull(); // HTTP
                HttpResponse<String> answer = stranger.send(HttpRequest.newBuilder(URI.create("http://localhost:"
                        + management + probe.getHttpGet().getPath())).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(answer.statusCode()).as(probe.getHttpGet().getPath()).isEqualTo(200);
                assertThat(answer.body()).contains("\"status\":\"UP\"");
            }
        }
    }

    private static int statusOf(HttpClient client, URI uri) {
        try {
            return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (java.io.IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    private static SSLContext trusting(Path caFile) throws Exception {
        try (InputStream in = Files.newInputStream(caFile)) {
            return trusting((X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
    }

    private static SSLContext trusting(X509Certificate ca) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("makeroom-ca", ca);
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
