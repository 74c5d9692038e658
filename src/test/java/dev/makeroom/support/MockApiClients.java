package dev.makeroom.support;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

/** makeroom's own client for a fabric8 mock server: the mock's address, on the JDK HTTP client makeroom uses. */
public final class MockApiClients {

    private MockApiClients() {
    }

    /** The same for the mock server itself: what a test's KubernetesClient bean hands makeroom. */
    public static KubernetesClient clientFor(KubernetesMockServer server) {
        try (KubernetesClient plain = server.createClient()) {
            return clientFor(plain);
        }
    }

    public static KubernetesClient clientFor(KubernetesClient mock) {
        return new KubernetesClientBuilder().withConfig(mock.getConfiguration())
                .withHttpClientFactory(new JdkHttpClientFactory()).build();
    }
}
