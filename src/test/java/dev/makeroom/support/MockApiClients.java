package dev.makeroom.support;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;

/** makeroom's own client for a fabric8 mock server: the mock's address, on the JDK HTTP client makeroom uses. */
public final class MockApiClients {

    private MockApiClients() {
    }

    public static KubernetesClient clientFor(KubernetesClient mock) {
        return new KubernetesClientBuilder().withConfig(mock.getConfiguration())
                .withHttpClientFactory(new JdkHttpClientFactory()).build();
    }
}
