package dev.makeroom.cluster;

import dev.makeroom.support.Await;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.makeroom.cluster.KubernetesClusterViewTest.node;
import static org.assertj.core.api.Assertions.assertThat;

/** A CRUD mock API that fails on purpose: 500s on list, 410 Gone on watch, slow answers. */
class ApiFaultsTest {

    /** The CRUD dispatcher with faults in front of it. */
    static final class FaultyDispatcher extends KubernetesCrudDispatcher {
        final AtomicInteger failingLists = new AtomicInteger();
        final AtomicBoolean goneOnNextWatch = new AtomicBoolean();
        final AtomicInteger lists = new AtomicInteger();
        volatile Duration delay = Duration.ZERO;

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            boolean get = "GET".equals(request.getMethod());
            boolean watch = path.contains("watch=true");
            if (get && !watch) {
                lists.incrementAndGet();
            }
            if (get && !watch && failingLists.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return status(500, "InternalError", "injected failure");
            }
            if (get && watch && goneOnNextWatch.getAndSet(false)) {
                return status(410, "Expired", "too old resource version");
            }
            MockResponse response = super.dispatch(request);
            return delay.isZero() ? response : response.setBodyDelay(delay);
        }

        private static MockResponse status(int code, String reason, String message) {
            return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                    .setBody("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":" + code
                            + ",\"reason\":\"" + reason + "\",\"message\":\"" + message + "\"}");
        }
    }

    private final FaultyDispatcher dispatcher = new FaultyDispatcher();
    private KubernetesMockServer server;
    private ViewUnderTest live;
    private KubernetesClusterView view;

    @BeforeEach
    void serve() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init();
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

    @Test
    void a_watch_answered_410_gone_makes_the_informer_relist() {
        dispatcher.goneOnNextWatch.set(true);
        startView();

        Await.until("the view syncs", Duration.ofSeconds(30), view::ready);
        assertThat(dispatcher.goneOnNextWatch.get()).as("a watch was answered 410").isFalse();
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
