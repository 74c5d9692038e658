package dev.makeroom.cluster;

import dev.makeroom.MakeroomApplication;
import dev.makeroom.mapping.ReservationAnnotation;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.rescheduler.RoundReport;
import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rescheduler acts only while its own replica serves the extender verbs. makeroom starts against
 * the mock API (the rescheduler example cluster, evict mode, rounds every 300 ms) with Tomcat's start
 * held back: the view syncs, the lease is taken and a dry run plans a move, yet no round evicts
 * anything and {@code /debug/rescheduler} says why. Once the port answers and the replica is ready the
 * move is made, every eviction arriving while the filter verb answers, and the moved pod's landing
 * steers its replacement. With the port's connector paused the rescheduler stops acting, and acts
 * again once it answers.
 */
class ActsOnlyWhenServingTest {

    private static final Duration CONVERGE = Duration.ofSeconds(40);
    private static final FaultyApi API = new FaultyApi();
    private static final CountDownLatch SERVE = new CountDownLatch(1);
    private static final AtomicReference<ApplicationContext> STARTING = new AtomicReference<>();
    private static KubernetesMockServer server;
    private static KubernetesClient admin;
    private static KubernetesClient makeroomsClient;
    private static ConfigurableApplicationContext makeroom;

    /**
     * Holds the context's start back before the web server's (a lower lifecycle phase starts first),
     * as a loaded machine does, and gives the test the context being started.
     */
    static final class HeldBackWebServer implements SmartLifecycle, ApplicationContextAware {
        private volatile boolean running;

        @Override
        public void setApplicationContext(ApplicationContext context) {
            STARTING.set(context);
        }

        @Override
        public void start() {
            try {
                assertThat(SERVE.await(2, TimeUnit.MINUTES)).as("the test lets the web server start").isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return 0;
        }
    }

    @BeforeAll
    static void serveAnUnbalancedCluster() throws Exception {
        server = FaultyApi.serve(API);
        admin = FaultyApi.admin(server);
        makeroomsClient = MockApiClients.clientFor(server);
        for (HasMetadata object : new SnapshotFileLoader().load(Path.of("examples/rescheduler-cluster.yaml"))) {
            admin.resource(object).create();
        }
        String young = Files.readString(Path.of("examples/rescheduler.yaml")).replace("minPodAge: 10m ", "minPodAge: 0s  ");
        admin.resource(new ConfigMapBuilder().withNewMetadata().withName("makeroom-rescheduler")
                .withNamespace("makeroom-system").endMetadata().addToData("rescheduler.yaml", young).build()).create();
    }

    @AfterAll
    static void stop() {
        if (makeroom != null) {
            makeroom.close();
        }
        SERVE.countDown();
        makeroomsClient.close();
        admin.close();
        MockServers.destroy(server);
    }

    @Test
    void nothing_is_evicted_before_the_extender_port_answers_and_the_room_made_goes_to_the_moved_pod() throws Exception {
        int port = freePort();
        ExtenderClient verbs = new ExtenderClient(port);
        List<Boolean> answeredAtEvictions = new CopyOnWriteArrayList<>();
        API.onEviction = () -> answeredAtEvictions.add(filterAnswers(verbs));
        Thread starter = new Thread(() -> makeroom = new SpringApplicationBuilder(MakeroomApplication.class,
                HeldBackWebServer.class).initializers(c -> c.getBeanFactory().registerSingleton("kubernetesClient",
                makeroomsClient)).run("--server.port=" + port, "--management.server.port=0",
                "--makeroom.cluster.source=kubernetes", "--makeroom.cluster.config-map-namespace=makeroom-system",
                "--makeroom.rescheduler.enabled=true", "--makeroom.rescheduler.mode=evict",
                "--makeroom.rescheduler.interval=300ms", "--logging.level.root=WARN"), "makeroom-start");
        starter.setDaemon(true);
        starter.start();

        Await.until("the rescheduler is made", CONVERGE, () -> STARTING.get() != null
                && STARTING.get().containsBean("rescheduler"));
        Rescheduler rescheduler = STARTING.get().getBean(Rescheduler.class);
        Await.until("a plan that moves worker-2", CONVERGE, () -> {
            assertThat(API.evictions.get()).as("evictions before the port listens").isZero();
            return rescheduler.planNow().moves().stream().anyMatch(m -> m.move().pod().name().equals("worker-2"));
        });
        String waiting = "not acting: its extender port is not listening yet";
        Await.until("a round that would act says why it does not", CONVERGE, () -> waiting.equals(newestIdle(rescheduler)));
        long roundsSeen = rescheduler.rounds().get(0).at().toEpochMilli();
        Await.until("rounds go on while the web server is held back", CONVERGE,
                () -> rescheduler.rounds().get(0).at().toEpochMilli() >= roundsSeen + 1_500);
        assertThat(newestIdle(rescheduler)).isEqualTo(waiting);
        assertThat(API.evictions.get()).as("evictions before the port listens").isZero();
        assertThat(rescheduler.notActing()).hasValueSatisfying(shut -> assertThat(shut.why())
                .isEqualTo("its extender port is not listening yet"));

        SERVE.countDown();
        Await.until("worker-2 is evicted", CONVERGE,
                () -> admin.pods().inNamespace("shop").withName("worker-2").get() == null);
        assertThat(answeredAtEvictions).as("the filter verb answered as each eviction arrived")
                .isNotEmpty().containsOnly(true);
        String planned = admin.nodes().list().getItems().stream()
                .filter(n -> ReservationAnnotation.read(n.getMetadata().getAnnotations()).stream()
                        .anyMatch(r -> r.isLanding() && r.pod().name().equals("worker-2")))
                .map(n -> n.getMetadata().getName()).findFirst().orElseThrow();
        HttpResponse<String> steered = verbs.post("/scheduler/filter", "{\"Pod\":" + REPLACEMENT
                + ",\"NodeNames\":[\"node-1\",\"node-2\",\"node-3\",\"node-4\"]}");
        assertThat(Json.parse(steered.body()).get("NodeNames").toString()).as("the replacement is steered to its landing")
                .isEqualTo("[\"" + planned + "\"]");

        ExtenderClient debug = new ExtenderClient(Integer.parseInt(makeroom.getEnvironment().getProperty("local.management.port")));
        assertThat(debug.get("/debug/rescheduler").body()).contains("\"acting\":true,\"notActing\":null");
        Connector connector = ((TomcatWebServer) ((WebServerApplicationContext) makeroom).getWebServer()).getTomcat()
                .getConnector();
        connector.pause(); // new connections wait, kept ones are answered 503: an overloaded or stopping port
        try {
            Await.until("the rescheduler stops acting while the port does not answer", CONVERGE,
                    () -> debug.get("/debug/rescheduler").body().contains("\"acting\":false,\"notActing\":\"its extender port "));
            Await.until("its rounds say so", CONVERGE, () -> String.valueOf(newestIdle(rescheduler))
                    .startsWith("not acting: its extender port "));
        } finally {
            connector.resume();
        }
        Await.until("it acts again once the port answers", CONVERGE,
                () -> debug.get("/debug/rescheduler").body().contains("\"acting\":true"));
        assertThat(newestIdleAfterAWhile(rescheduler)).isNull();
    }

    /** A new pod of worker-2's ReplicaSet, pending, as its controller would make it. */
    private static final String REPLACEMENT = "{\"metadata\":{\"name\":\"worker-5b2d-x7k2p\",\"namespace\":\"shop\","
            + "\"uid\":\"worker-x7k2p-uid\",\"labels\":{\"app\":\"worker\"},\"ownerReferences\":[{\"apiVersion\":\"apps/v1\","
            + "\"kind\":\"ReplicaSet\",\"name\":\"worker-5b2d\",\"uid\":\"worker-5b2d-uid\",\"controller\":true}]},"
            + "\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"example/worker\","
            + "\"resources\":{\"requests\":{\"cpu\":\"750m\",\"memory\":\"512Mi\"}}}]}}";

    private static String newestIdle(Rescheduler rescheduler) {
        List<RoundReport> rounds = rescheduler.rounds();
        return rounds.isEmpty() ? null : rounds.get(0).idle();
    }

    /** The newest round's idle reason once a round has run after this call began. */
    private static String newestIdleAfterAWhile(Rescheduler rescheduler) {
        java.time.Instant asked = java.time.Instant.now();
        Await.until("a round after the port answers again", CONVERGE,
                () -> !rescheduler.rounds().isEmpty() && rescheduler.rounds().get(0).at().isAfter(asked));
        return newestIdle(rescheduler);
    }

    /** Whether the extender's filter verb answers now (the scheduler's view of makeroom at that moment). */
    private static boolean filterAnswers(ExtenderClient verbs) {
        try {
            return verbs.post("/scheduler/filter", "{\"Pod\":" + REPLACEMENT + ",\"NodeNames\":[]}").statusCode() == 200;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
