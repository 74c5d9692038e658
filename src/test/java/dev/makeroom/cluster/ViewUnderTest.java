package dev.makeroom.cluster;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;

import java.time.Duration;

/** A live view started for a test against a (mock) API server, with its own JDK-based client. */
final class ViewUnderTest implements AutoCloseable {

    static final LiveViewSettings SETTINGS =
            new LiveViewSettings(Duration.ofMinutes(10), "makeroom-system", "makeroom-queues", Duration.ofMinutes(10));

    private final KubernetesClient client;
    final KubernetesClusterView view;

    private ViewUnderTest(Config api) {
        client = new KubernetesClientBuilder().withConfig(api).withHttpClientFactory(new JdkHttpClientFactory()).build();
        view = new KubernetesClusterView(client, SETTINGS).start();
    }

    /** Starts watching the API that {@code api} points at; returns at once. */
    static ViewUnderTest watching(Config api) {
        return new ViewUnderTest(api);
    }

    static ViewUnderTest watching(KubernetesMockServer server) {
        try (KubernetesClient admin = server.createClient()) {
            return watching(admin.getConfiguration());
        }
    }

    @Override
    public void close() {
        view.close();
        client.close();
    }
}
