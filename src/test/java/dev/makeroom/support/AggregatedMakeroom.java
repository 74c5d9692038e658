package dev.makeroom.support;

import dev.makeroom.cluster.MockServers;
import dev.makeroom.cluster.ReviewingApi;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * makeroom on the demo cluster with its debug API reviewed ({@link ReviewingApi}: alice may, bob may
 * not) and served as the aggregated API on {@link #PORT}, with a serving certificate of
 * {@link #SERVING_CA}'s; the mock API server publishes {@link #FRONT_PROXY_CA} as the front proxy's CA,
 * and {@link #FRONT_PROXY} is the client certificate the API server would present.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "makeroom.debug.auth=true")
@Import(AggregatedMakeroom.ReviewingCluster.class) // a nested configuration is found in the test class only, not in its superclass
public abstract class AggregatedMakeroom {

    protected static final TestPki.Issued FRONT_PROXY_CA = TestPki.authority("front-proxy-ca");
    protected static final TestPki.Issued FRONT_PROXY = FRONT_PROXY_CA.issue("front-proxy-client", false);
    protected static final TestPki.Issued SERVING_CA = TestPki.authority("makeroom-ca");
    protected static final int PORT = FreePort.next();

    /** The mock API server, for as long as the (cached, shared) application context that uses it lives. */
    record ReviewingApiServer(KubernetesMockServer server) implements AutoCloseable {
        @Override
        public void close() {
            MockServers.destroy(server);
        }
    }

    @TestConfiguration
    static class ReviewingCluster {
        @Bean
        ReviewingApiServer reviewingApiServer() {
            return new ReviewingApiServer(ReviewingApi.serveWithFrontProxy(FRONT_PROXY_CA.certificatePem()));
        }

        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient(ReviewingApiServer api) {
            return MockApiClients.clientFor(api.server());
        }
    }

    @DynamicPropertySource
    static void aggregation(DynamicPropertyRegistry properties) throws IOException {
        Path dir = Files.createTempDirectory("makeroom-aggregation");
        SERVING_CA.issue("makeroom", true).write(dir, "serving");
        properties.add("makeroom.debug.aggregation.port", () -> PORT);
        properties.add("makeroom.debug.aggregation.certificate-file", () -> dir.resolve("serving.crt").toString());
        properties.add("makeroom.debug.aggregation.key-file", () -> dir.resolve("serving.key").toString());
    }

    @LocalManagementPort
    protected int managementPort;

}
