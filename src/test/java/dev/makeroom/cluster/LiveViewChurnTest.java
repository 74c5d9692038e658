package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.support.Await;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A churn soak in live mode: changes through the mock API at a steady rate, resyncs every second,
 * every ten seconds the watches dropped and answered 410 (a relist), while a client calls all three
 * verbs over HTTP without pause. At checkpoints the churn pauses and the live view must come to
 * equal a view built fresh from the API's objects. The suite runs it for 40 s;
 * {@code -Dmakeroom.churn.seconds=300} runs the soak whose figures are in docs/benchmarks.md.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.source=kubernetes", "makeroom.cluster.config-map-namespace=makeroom-system",
        "makeroom.cluster.resync=1s"})
class LiveViewChurnTest {

    private static final Duration CONVERGE = Duration.ofSeconds(20);
    private static final Duration CHECKPOINT_EVERY = Duration.ofSeconds(10);
    private static final long STEP_NANOS = Duration.ofMillis(20).toNanos(); // 50 changes a second
    private static final LiveViewSettings SETTINGS =
            new LiveViewSettings(Duration.ofSeconds(1), "makeroom-system", "makeroom-queues", Duration.ofMinutes(10));
    private static final FaultyApi API = new FaultyApi();
    private static KubernetesMockServer server;
    private static KubernetesClient admin;

    @TestConfiguration
    static class MockApi {
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient() {
            return MockApiClients.clientFor(server);
        }
    }

    @BeforeAll
    static void serve() {
        server = FaultyApi.serve(API);
        admin = FaultyApi.admin(server);
    }

    @AfterAll
    static void stop() {
        admin.close();
        MockServers.destroy(server);
    }

    @LocalServerPort
    int port;

    @Autowired
    ClusterView clusterView;

    @Test
    void under_churn_resyncs_and_relists_the_view_keeps_equal_to_the_api() throws Exception {
        KubernetesClusterView view = (KubernetesClusterView) clusterView;
        Churn churn = new Churn(admin, Long.getLong("makeroom.churn.seed", 7));
        churn.seed();
        Await.until("the view is ready", CONVERGE, view::ready);
        awaitEqual(view);

        AtomicBoolean calling = new AtomicBoolean(true);
        AtomicLong requests = new AtomicLong();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        VerbProbe verbs = new VerbProbe(port);
        Thread caller = new Thread(() -> {
            while (calling.get()) {
                try {
                    requests.addAndGet(verbs.answers(view.snapshot()).size());
                } catch (Throwable e) {
                    failures.add(e);
                    return;
                }
            }
        }, "verb-caller");
        caller.start();

        long seconds = Long.getLong("makeroom.churn.seconds", 40);
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        int checkpoints = 0;
        int relists = 0;
        while (System.nanoTime() < end) {
            long checkpointAt = Math.min(end, System.nanoTime() + CHECKPOINT_EVERY.toNanos());
            long next = System.nanoTime();
            boolean relisted = false;
            while (System.nanoTime() < checkpointAt) {
                churn.step();
                if (!relisted && System.nanoTime() > checkpointAt - CHECKPOINT_EVERY.toNanos() / 2) {
                    API.goneOnNextWatches.set(FaultyApi.VIEW_WATCHES);
                    API.dropWatches();
                    relisted = true;
                    relists++;
                }
                next += STEP_NANOS;
                LockSupport.parkNanos(next - System.nanoTime()); // a steady rate, not a wait for a result
            }
            awaitEqual(view);
            checkpoints++;
        }
        calling.set(false);
        caller.join();

        assertThat(failures).isEmpty();
        long events = view.watchedKinds().stream().flatMap(k -> view.notificationOutcomes().stream()
                .filter(o -> !o.equals("UNCHANGED")).map(o -> view.notifications(k, o))).mapToLong(Long::longValue).sum();
        long unchanged = view.watchedKinds().stream().mapToLong(k -> view.notifications(k, "UNCHANGED")).sum();
        System.out.printf("churn soak: %d s, %d changes, %d events applied, %d unchanged notifications ignored, "
                        + "%d relists, %d requests, %d checkpoints, 0 mismatches%n",
                seconds, churn.operations, events, unchanged, relists, requests.get(), checkpoints);
        assertThat(churn.operations).isGreaterThan(seconds * 20);
        assertThat(requests.get()).isPositive();
        assertThat(unchanged).as("resyncs happened and were ignored").isPositive();
        assertThat(API.gone.get()).as("every informer relisted after each drop").isGreaterThanOrEqualTo(6 * relists);
    }

    private static void awaitEqual(KubernetesClusterView view) {
        ApiState.awaitEqual(admin, SETTINGS, view, CONVERGE);
    }
}
