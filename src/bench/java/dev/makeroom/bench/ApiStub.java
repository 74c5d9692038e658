package dev.makeroom.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.FieldsV1;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocketListener;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A read-only API server for a generated cluster of any size: lists answered page by page
 * ({@code limit}/{@code continue}, or everything at once without a limit), objects generated on
 * the fly as the API server returns them (managed fields, env, volumes, conditions), watches that
 * open and stay quiet. Nothing is held: a 150,000-pod cluster costs this JVM one page at a time.
 */
final class ApiStub extends Dispatcher {

    private static final Pattern LIMIT = Pattern.compile("[?&]limit=(\\d+)");
    private static final Pattern CONTINUE = Pattern.compile("[?&]continue=(\\d+)");
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final GeneratedCluster cluster;
    final AtomicLong listRequests = new AtomicLong();
    final AtomicLong largestPageBytes = new AtomicLong();
    private final Map<String, String> prebuilt = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, List<Integer>> pageSizes = new java.util.concurrent.ConcurrentHashMap<>();

    ApiStub(GeneratedCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Builds the pages of pods and nodes a client listing {@code limit} at a time will ask for, so
     * that what is measured is the client, not this stub making objects.
     */
    void prebuild(int limit) {
        for (String path : List.of("/api/v1/nodes", "/api/v1/pods")) {
            int total = path.endsWith("nodes") ? cluster.nodeCount() : cluster.podCount();
            for (int from = 0; from < total; from += limit) {
                String query = path + "?limit=" + limit + (from == 0 ? "" : "&continue=" + from);
                prebuilt.put(key(query), ((String) respond(query)));
            }
        }
    }

    private static String key(String path) {
        return path.split("\\?")[0] + "|" + match(LIMIT, path, 0) + "|" + match(CONTINUE, path, 0);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath();
        String body = prebuilt.get(key(path));
        if (body != null && !path.contains("watch=true")) {
            listRequests.incrementAndGet();
            return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(body);
        }
        Object answer = respond(path);
        return answer instanceof String json
                ? new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(json)
                : (MockResponse) answer;
    }

    /** How many objects each list of {@code path} answered, in order (built ahead or not). */
    List<Integer> pageSizes(String path) {
        return pageSizes.getOrDefault(path, List.of());
    }

    /** A list body (String) or another response. */
    private Object respond(String path) {
        if (path.contains("watch=true")) {
            return new MockResponse().withWebSocketUpgrade(new WebSocketListener() { });
        }
        String bare = path.split("\\?")[0];
        return switch (bare) {
            case "/api/v1/nodes" -> list(path, "NodeList", cluster.nodeCount(), cluster::node);
            case "/api/v1/pods" -> list(path, "PodList", cluster.podCount(), this::pod);
            case "/apis/scheduling.k8s.io/v1/priorityclasses" -> list(path, "PriorityClassList",
                    cluster.priorityClasses().size(), cluster.priorityClasses()::get);
            case "/apis/policy/v1/poddisruptionbudgets" -> list(path, "PodDisruptionBudgetList",
                    cluster.budgets().size(), cluster.budgets()::get);
            case "/api/v1/namespaces" -> list(path, "NamespaceList", cluster.namespaces().size() + 1,
                    i -> i < cluster.namespaces().size() ? cluster.namespaces().get(i) : new NamespaceBuilder()
                            .withNewMetadata().withName("makeroom-system").withResourceVersion("100").endMetadata().build());
            default -> bare.endsWith("/configmaps") ? list(path, "ConfigMapList", 0, i -> null)
                    : new MockResponse().setResponseCode(404);
        };
    }

    /** Pod i as the API server returns it, with the managed fields every object carries. */
    private Pod pod(int i) {
        Pod pod = cluster.pod(i);
        pod.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("kube-controller-manager")
                .withOperation("Update").withApiVersion("v1").withTime("2026-11-20T08:00:00Z").withFieldsType("FieldsV1")
                .withFieldsV1(fields(Map.of("f:metadata", Map.of("f:labels", Map.of("f:app", Map.of(),
                        "f:pod-template-hash", Map.of(), "f:team", Map.of()), "f:ownerReferences", Map.of()),
                        "f:spec", Map.of("f:containers", Map.of("k:{\"name\":\"main\"}", Map.of("f:env", Map.of(),
                                "f:image", Map.of(), "f:resources", Map.of()))))))
                .build(), new ManagedFieldsEntryBuilder().withManager("kubelet").withOperation("Update")
                .withApiVersion("v1").withTime("2026-11-20T08:01:00Z").withFieldsType("FieldsV1").withSubresource("status")
                .withFieldsV1(fields(Map.of("f:status", Map.of("f:conditions", Map.of(), "f:phase", Map.of(),
                        "f:podIP", Map.of(), "f:startTime", Map.of())))).build()));
        return pod;
    }

    private static FieldsV1 fields(Map<String, ?> owned) {
        FieldsV1 fields = new FieldsV1();
        owned.forEach(fields::setAdditionalProperty);
        return fields;
    }

    private String list(String path, String kind, int total, IntFunction<? extends HasMetadata> item) {
        listRequests.incrementAndGet();
        int limit = match(LIMIT, path, total);
        int from = match(CONTINUE, path, 0);
        int to = limit <= 0 ? total : Math.min(total, from + limit);
        List<HasMetadata> items = new ArrayList<>(Math.max(0, to - from));
        pageSizes.computeIfAbsent(path.split("\\?")[0], k -> new java.util.concurrent.CopyOnWriteArrayList<>())
                .add(Math.max(0, to - from));
        for (int i = from; i < to; i++) {
            items.add(item.apply(i));
        }
        String next = to < total ? ",\"continue\":\"" + to + "\"" : "";
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"" + kind + "\",\"metadata\":{\"resourceVersion\":\"20000000\""
                + next + "},\"items\":" + JSON.asJson(items) + "}";
        largestPageBytes.accumulateAndGet(body.length(), Math::max);
        return body;
    }

    private static int match(Pattern pattern, String path, int otherwise) {
        Matcher m = pattern.matcher(path);
        return m.find() ? Integer.parseInt(m.group(1)) : otherwise;
    }
}
