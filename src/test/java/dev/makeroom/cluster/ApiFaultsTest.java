package dev.makeroom.cluster;

import dev.makeroom.support.Await;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static dev.makeroom.cluster.KubernetesClusterViewTest.node;
import static org.assertj.core.api.Assertions.assertThat;

/** The live view against a CRUD mock API that fails on purpose: 500s on list, 410 Gone on watch, slow answers. */
class ApiFaultsTest {

    private final FaultyApi dispatcher = new FaultyApi();
    private KubernetesMockServer server;
    private ViewUnderTest live;
    private KubernetesClusterView view;

    @BeforeEach
    void serve() {
        server = FaultyApi.serve(dispatcher);
        try (KubernetesClient admin = server.createClient()) {
            admin.resource(node("n1", "4")).create();
        }
    }

    @AfterEach
    void stop() {
        if (live != null) {
            live.close();
        }
        MockServers.destroy(server);
    }

    private void startView() {
        live = ViewUnderTest.watching(server);
        view = live.view;
    }

    @Test
    void failing_lists_delay_readiness_until_they_succeed() {
        dispatcher.failingLists.set(8);
        startView();

        assertThat(view.ready()).isFalse();
        Await.until("the view syncs once lists succeed", Duration.ofSeconds(30), view::ready);
        assertThat(dispatcher.failingLists.get()).isZero();
        assertThat(view.snapshot().node("n1")).isNotNull();
    }

    /**
     * Until the first sync is done the view publishes what it applied at most twice a second, not
     * after every batch; what it has is still published while a kind cannot be listed, not held
     * back until readiness.
     */
    @Test
    void what_a_view_still_syncing_has_applied_is_published() {
        dispatcher.failingListsOf = "poddisruptionbudgets";
        startView();

        Await.until("the listed node is published", Duration.ofSeconds(10), () -> view.snapshot().node("n1") != null);
        try (KubernetesClient admin = FaultyApi.admin(server)) {
            admin.resource(node("n2", "8")).create(); // most likely within the half second after that publication
        }
        Await.until("a node watched since is published", Duration.ofSeconds(10), () -> view.snapshot().node("n2") != null);
        assertThat(view.ready()).as("not ready while budgets cannot be listed").isFalse();
        dispatcher.failingListsOf = null;
        Await.until("the view syncs once budgets list", Duration.ofSeconds(30), view::ready);
    }

    @Test
    void a_watch_answered_410_gone_makes_the_informer_relist() {
        dispatcher.goneOnNextWatches.set(1);
        startView();

        Await.until("the view syncs", Duration.ofSeconds(30), view::ready);
        assertThat(dispatcher.gone.get()).as("a watch was answered 410").isEqualTo(1);
        // six informers list once each; the one whose watch was gone lists again
        Await.until("an informer relisted after the 410", Duration.ofSeconds(30), () -> dispatcher.lists.get() > 6);
        try (KubernetesClient admin = server.createClient()) {
            admin.resource(node("n2", "8")).create();
            admin.resource(KubernetesClusterViewTest.pod("p1", "n2", "1")).create();
        }
        Await.until("every informer still follows changes", Duration.ofSeconds(10),
                () -> view.snapshot().node("n2") != null && view.snapshot().node("n2").pods().size() == 1);
    }

    @Test
    void slow_answers_only_slow_the_view_down() {
        // the mock server delays on its event loop, so every answer waits behind the others
        dispatcher.delay = Duration.ofMillis(250);
        startView();

        assertThat(view.ready()).isFalse();
        Await.until("the view syncs despite the slow API", Duration.ofSeconds(30), view::ready);
        assertThat(view.snapshot().node("n1")).isNotNull();
    }
}
