package dev.makeroom.cluster;

import dev.makeroom.core.model.KubeVersion;
import dev.makeroom.support.Await;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live view answers for the version the API server reports at {@code /version} (the form of a
 * real 1.32 API server's answer), or for the version configured, whatever the API server says.
 */
@EnableKubernetesMockClient(crud = true)
class ServedVersionOverApiTest {

    static KubernetesMockServer server;
    static KubernetesClient client;

    /** What a 1.32 API server answers at /version (its minor with the "+" some distributions add). */
    private static final VersionInfo VERSION_1_32 = new VersionInfo.Builder().withMajor("1").withMinor("32+")
            .withGitVersion("v1.32.13").withGitCommit("63adf010aa20").withGoVersion("go1.23.5").build();

    @Test
    void the_view_reads_the_api_servers_version_and_answers_for_it() {
        server.setVersionInfo(VERSION_1_32);
        try (KubernetesClusterView view = started(null)) {
            Await.until("the view has synced", Duration.ofSeconds(10), view::ready);
            Await.until("the snapshot answers for 1.32", Duration.ofSeconds(10),
                    () -> view.snapshot().version().equals(new KubeVersion(1, 32)));
        }
    }

    @Test
    void a_configured_version_is_answered_for_whatever_the_api_server_says() {
        server.setVersionInfo(VERSION_1_32);
        try (KubernetesClusterView view = started(new KubeVersion(1, 26))) {
            Await.until("the view has synced", Duration.ofSeconds(10), view::ready);
            assertThat(view.snapshot().version()).isEqualTo(new KubeVersion(1, 26));
        }
    }

    private static KubernetesClusterView started(KubeVersion configured) {
        Config api = client.getConfiguration();
        KubernetesClient own = new KubernetesClientBuilder().withConfig(api).withHttpClientFactory(new JdkHttpClientFactory())
                .build();
        return new KubernetesClusterView(own, new LiveViewSettings(Duration.ZERO, "makeroom-system", "makeroom-queues",
                Duration.ofMinutes(10), configured)).start();
    }
}
