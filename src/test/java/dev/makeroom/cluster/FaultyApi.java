package dev.makeroom.cluster;

import dev.makeroom.mapping.PodGroupKind;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * fabric8's CRUD mock API with faults a real API server shows over days, injected on purpose:
 * failing lists (500), watches answered 410 Gone (the resourceVersion is too old: relist), watches
 * the server closes (reconnect), slow answers.
 *
 * <p>The CRUD mock replays the current objects as ADDED to every new watch and ignores the
 * resourceVersion a watch asks to resume from, so a deletion made between a list and the watch
 * that follows it would never be told. A real API server replays such events; this one answers
 * 410 instead (also real: the server's history was compacted), and the informer relists. A plain
 * reconnect after {@link #dropWatches()} resumes from an event's resourceVersion, which the mock
 * cannot replay from either: tests that change objects while watches are down pair it with
 * {@link #goneOnNextWatches}.
 */
final class FaultyApi extends KubernetesCrudDispatcher {

    /** Lists to answer 500 before answering normally again. */
    final AtomicInteger failingLists = new AtomicInteger();
    /** Watches to answer 410 Gone (as a real API server does: an ERROR event on the opened watch) before answering normally again. */
    final AtomicInteger goneOnNextWatches = new AtomicInteger();
    final AtomicInteger lists = new AtomicInteger();
    final AtomicInteger watches = new AtomicInteger();
    final AtomicInteger gone = new AtomicInteger();
    volatile Duration delay = Duration.ZERO;
    /** While set, every list of a path containing this (e.g. a resource's plural) is answered 500. */
    volatile String failingListsOf;
    private final Set<WebSocket> openWatches = ConcurrentHashMap.newKeySet();
    private final ListWatchGaps gaps = new ListWatchGaps();

    /** Pods (namespace/name) whose eviction a PodDisruptionBudget refuses: answered 429, as a real API server does. */
    final Set<String> refusedEvictions = ConcurrentHashMap.newKeySet();
    /** Evictions answered, and pod DELETEs from anyone but the test (makeroom must never delete pods). */
    final AtomicInteger evictions = new AtomicInteger();
    final AtomicInteger podDeletes = new AtomicInteger();
    /** Run as each eviction arrives, before it is answered: what a test checks at that moment. */
    volatile Runnable onEviction = () -> { };

    /** Requests with this header come from the test itself (setting up, reading the truth): never faulted. */
    private static final String ADMIN = "X-Makeroom-Test-Admin";

    /**
     * The watches a live view keeps open: one per watched kind (nodes, pods, budgets, classes, namespaces,
     * makeroom's ConfigMap) and one per PodGroup kind, which this server serves as it serves any path.
     */
    static final int VIEW_WATCHES = 6 + PodGroupKind.values().length;

    /** A started mock API server answering through a new FaultyApi. */
    static KubernetesMockServer serve(FaultyApi api) {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
        server.init();
        return server;
    }

    /** A client for the test's own requests, which the faults leave alone. */
    static KubernetesClient admin(KubernetesMockServer server) {
        try (KubernetesClient plain = server.createClient()) {
            Config config = new ConfigBuilder(plain.getConfiguration()).withCustomHeaders(Map.of(ADMIN, "true")).build();
            return new KubernetesClientBuilder().withConfig(config).build();
        }
    }

    /** Whether discovery says resource.k8s.io/v1 is served (the CRUD mock serves any path, but tells no groups). */
    volatile boolean servesDevices;

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath();
        if (servesDevices && "GET".equals(request.getMethod()) && path.equals("/apis/resource.k8s.io")) {
            return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(
                    "{\"kind\":\"APIGroup\",\"apiVersion\":\"v1\",\"name\":\"resource.k8s.io\",\"versions\":"
                            + "[{\"groupVersion\":\"resource.k8s.io/v1\",\"version\":\"v1\"}],"
                            + "\"preferredVersion\":{\"groupVersion\":\"resource.k8s.io/v1\",\"version\":\"v1\"}}");
        }
        boolean get = "GET".equals(request.getMethod());
        boolean watch = path.contains("watch=true");
        if (!get && path.endsWith("/eviction")) {
            return evict(request, path);
        }
        if ("DELETE".equals(request.getMethod()) && path.contains("/pods/") && request.getHeader(ADMIN) == null) {
            podDeletes.incrementAndGet();
        }
        if (!get) {
            MockResponse response = super.dispatch(request);
            gaps.changed(ListWatchGaps.resource(path));
            return response;
        }
        if (request.getHeader(ADMIN) != null) {
            return super.dispatch(request);
        }
        if (!watch) {
            lists.incrementAndGet();
            String failing = failingListsOf;
            if (failingLists.getAndUpdate(n -> Math.max(0, n - 1)) > 0 || failing != null && path.contains(failing)) {
                return status(500, "InternalError", "injected failure");
            }
        }
        if (watch) {
            watches.incrementAndGet();
            boolean missed = gaps.missedSinceList(ListWatchGaps.resource(path), ListWatchGaps.resourceVersion(path));
            if (goneOnNextWatches.getAndUpdate(n -> Math.max(0, n - 1)) > 0 || missed) {
                gone.incrementAndGet();
                return new MockResponse().withWebSocketUpgrade(new Expired());
            }
        }
        MockResponse response = super.dispatch(request);
        if (!watch && response.code() == 200) {
            gaps.listed(ListWatchGaps.resource(path), new String(response.getBody().getBytes(), StandardCharsets.UTF_8));
        }
        if (response.getWebSocketListener() != null) {
            response = response.withWebSocketUpgrade(new Tracked(response.getWebSocketListener()));
        }
        return delay.isZero() ? response : response.setBodyDelay(delay);
    }

    /**
     * The Eviction subresource, which the CRUD mock does not know: 429 for a refused pod, else the pod
     * is deleted (as the API server does once the budgets allow) and 201 answered.
     */
    private MockResponse evict(RecordedRequest request, String path) {
        String podPath = path.substring(0, path.length() - "/eviction".length());
        String[] parts = podPath.split("/");
        String pod = parts[parts.length - 3] + "/" + parts[parts.length - 1];
        onEviction.run();
        if (refusedEvictions.contains(pod)) {
            return status(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.");
        }
        MockResponse deleted = super.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.DELETE, podPath,
                request.getHeaders(), new Buffer()));
        gaps.changed(ListWatchGaps.resource(podPath));
        if (deleted.code() >= 300) {
            return deleted;
        }
        evictions.incrementAndGet();
        return new MockResponse().setResponseCode(201).setHeader("Content-Type", "application/json")
                .setBody("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Success\",\"code\":201}");
    }

    /** Closes every open watch from the server's side, as an API server restart or a load balancer does. */
    int dropWatches() {
        int dropped = 0;
        for (WebSocket socket : openWatches) {
            openWatches.remove(socket);
            socket.close(1000, "dropped by the test");
            dropped++;
        }
        return dropped;
    }

    int openWatches() {
        return openWatches.size();
    }

    private static MockResponse status(int code, String reason, String message) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody("{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"code\":" + code
                        + ",\"reason\":\"" + reason + "\",\"message\":\"" + message + "\"}");
    }

    /** A watch from a resourceVersion the server no longer has: one ERROR event with status 410, then the end. */
    private static final class Expired extends WebSocketListener {
        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            webSocket.send("{\"type\":\"ERROR\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Status\","
                    + "\"status\":\"Failure\",\"code\":410,\"reason\":\"Expired\",\"message\":\"too old resource version\"}}");
            webSocket.close(1000, "");
        }
    }

    /** The CRUD mock's watch listener, with its socket remembered so the test can close it. */
    private final class Tracked extends WebSocketListener {
        private final WebSocketListener delegate;

        Tracked(WebSocketListener delegate) {
            this.delegate = delegate;
        }

        @Override
        public void onBeforeAccept(WebSocket webSocket, Response response) {
            delegate.onBeforeAccept(webSocket, response);
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            openWatches.add(webSocket);
            delegate.onOpen(webSocket, response);
        }

        @Override
        public void onMessage(WebSocket webSocket, String text) {
            delegate.onMessage(webSocket, text);
        }

        @Override
        public void onMessage(WebSocket webSocket, byte[] bytes) {
            delegate.onMessage(webSocket, bytes);
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            openWatches.remove(webSocket);
            delegate.onClosing(webSocket, code, reason);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            openWatches.remove(webSocket);
            delegate.onClosed(webSocket, code, reason);
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable error, Response response) {
            openWatches.remove(webSocket);
            delegate.onFailure(webSocket, error, response);
        }
    }
}
