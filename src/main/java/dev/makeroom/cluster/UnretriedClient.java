package dev.makeroom.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;

/**
 * A client for calls whose caller wants the API's answer at once: fabric8 otherwise retries a 429 or
 * a 5xx (and an unreachable API) with backoff for many seconds. On the JDK HTTP client makeroom uses.
 */
final class UnretriedClient {

    private UnretriedClient() {
    }

    /** A new client to the API of {@code config} (its address and credentials) that does not retry. */
    static KubernetesClient of(Config config) {
        return new KubernetesClientBuilder().withConfig(new ConfigBuilder(config).withRequestRetryBackoffLimit(0).build())
                .withHttpClientFactory(new JdkHttpClientFactory()).build();
    }
}
