package dev.makeroom.cluster;

import dev.makeroom.support.FreePort;
import dev.makeroom.support.Await;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.time.Duration;
import java.util.HashMap;

import static dev.makeroom.cluster.KubernetesClusterViewTest.node;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API server goes away (every connection dropped) and a new one comes back on the same
 * address with a node added: meanwhile the view keeps serving its last snapshot and stays ready;
 * afterwards it reconnects and catches up. (The mock server keeps no event history across the
 * restart, so deletions during an outage are covered where a relist reports them:
 * {@link LiveClusterStateTest}.)
 */
class ApiOutageTest {

    private KubernetesMockServer server;
    private ViewUnderTest live;

    private static KubernetesMockServer crudServer(int port) throws Exception {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init(InetAddress.getLoopbackAddress(), port);
        return server;
    }

    @AfterEach
    void stop() {
        if (live != null) {
            live.close();
        }
        if (server != null) {
            MockServers.destroy(server);
        }
    }

    @Test
    void the_last_view_keeps_serving_through_an_outage_and_catches_up_after() throws Exception {
        int port = FreePort.next();
        server = crudServer(port);
        String uid;
        try (KubernetesClient admin = server.createClient()) {
            admin.resource(node("n1", "4")).create();
            uid = admin.resource(KubernetesClusterViewTest.pod("p1", "n1", "1")).create().getMetadata().getUid();
        }
        live = ViewUnderTest.watching(server);
        KubernetesClusterView view = live.view;
        Await.until("the view has synced with the pod", Duration.ofSeconds(10),
                () -> view.ready() && view.snapshot().pod(uid) != null);
        var before = view.snapshot();

        MockServers.destroy(server);
        Await.until("the view counts as stale once its watches are lost", Duration.ofSeconds(10),
                () -> view.staleSeconds("NODE") > 1.5);
        assertThat(view.ready()).isTrue();
        assertThat(view.snapshot()).isSameAs(before);
        assertThat(view.snapshot().node("n1")).isNotNull();

        server = crudServer(port);
        try (KubernetesClient admin = server.createClient()) {
            admin.resource(node("n1", "4")).create();
            admin.resource(node("n2", "8")).create();
        }
        Await.until("the view has caught up with the new node", Duration.ofSeconds(30),
                () -> view.snapshot().node("n2") != null);
        assertThat(view.ready()).isTrue();
        Await.until("the view is current again", Duration.ofSeconds(10), () -> view.staleSeconds("NODE") < 1.5);
    }
}
