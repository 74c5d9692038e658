package dev.makeroom.bench;

import dev.makeroom.cluster.KubernetesClusterView;
import dev.makeroom.cluster.LiveViewSettings;
import dev.makeroom.support.Await;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first sync lists in pages: against the API stub of the first-sync benchmark (objects of the
 * API server's real shape), a cluster of 3,000 pods arrives in pages of at most 500 and all of it
 * ends up in the view.
 */
class FirstSyncPagingTest {

    @Test
    void pods_and_nodes_are_listed_a_page_at_a_time_and_all_arrive() {
        ApiStub api = new ApiStub(new TeamsCluster(100, 30));
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
        server.init();
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(server.createClient().getConfiguration())
                .withHttpClientFactory(new JdkHttpClientFactory()).build();
             KubernetesClusterView view = new KubernetesClusterView(client, new LiveViewSettings(Duration.ZERO,
                     "makeroom-system", "makeroom-queues", Duration.ofMinutes(10))).start()) {
            Await.until("the view is ready", Duration.ofSeconds(60), view::ready);

            assertThat(view.snapshot().pods()).hasSize(3000);
            assertThat(view.snapshot().nodes()).hasSize(100);
            assertThat(api.pageSizes("/api/v1/pods")).containsExactly(500, 500, 500, 500, 500, 500);
            assertThat(api.pageSizes("/api/v1/nodes")).containsExactly(100);
        } finally {
            server.destroy();
        }
    }
}
