package dev.makeroom.cluster;

import dev.makeroom.mapping.PodGroupKind;
import dev.makeroom.mapping.SnapshotMapper;
import dev.makeroom.mapping.StringMaps;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.support.Await;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The API's current objects, read afresh with plain lists and turned into a snapshot by the same
 * mapper the snapshot file uses: what a view built from scratch would hold. {@link #differences}
 * compares it with the live view's snapshot by value, naming every difference.
 */
final class ApiState {

    private final ClusterSnapshot snapshot;
    private final Map<String, String> configData;

    private ApiState(ClusterSnapshot snapshot, Map<String, String> configData) {
        this.snapshot = snapshot;
        this.configData = configData;
    }

    static ApiState read(KubernetesClient admin, LiveViewSettings settings) {
        List<HasMetadata> objects = new ArrayList<>();
        objects.addAll(admin.scheduling().v1().priorityClasses().list().getItems());
        objects.addAll(admin.nodes().list().getItems());
        objects.addAll(admin.pods().inAnyNamespace().list().getItems());
        objects.addAll(admin.policy().v1().podDisruptionBudget().inAnyNamespace().list().getItems());
        objects.addAll(admin.namespaces().list().getItems());
        for (PodGroupKind kind : PodGroupKind.values()) {
            objects.addAll(admin.genericKubernetesResources(PodGroupMinimumsOverApiTest.context(kind)).inAnyNamespace()
                    .list().getItems());
        }
        ConfigMap config = admin.configMaps().inNamespace(settings.configMapNamespace())
                .withName(settings.configMapName()).get();
        Map<String, String> data = config == null ? Map.of() : Map.copyOf(StringMaps.clean(config.getData()));
        return new ApiState(SnapshotMapper.toSnapshot(objects), data);
    }

    ClusterSnapshot snapshot() {
        return snapshot;
    }

    /** Waits until {@code view} holds exactly the API's objects; fails naming what still differs. */
    static void awaitEqual(KubernetesClient admin, LiveViewSettings settings, KubernetesClusterView view,
                           Duration timeout) {
        try {
            Await.until("the live view equals the API", timeout,
                    () -> read(admin, settings).differences(view).isEmpty());
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; still different: " + read(admin, settings).differences(view), e);
        }
    }

    /** Every way {@code view} differs from the API, empty when it holds exactly the API's objects. */
    List<String> differences(KubernetesClusterView view) {
        ClusterSnapshot live = view.snapshot();
        List<String> out = new ArrayList<>();
        compare(out, "node", byKey(snapshot.nodes(), NodeInfo::name), byKey(live.nodes(), NodeInfo::name),
                ApiState::sameNode, ApiState::nodeDifference);
        compare(out, "pod", byKey(snapshot.pods(), PodInfo::uid), byKey(live.pods(), PodInfo::uid), Objects::equals,
                ApiState::values);
        compare(out, "budget", byKey(snapshot.budgets(), b -> b.namespace() + "/" + b.name()),
                byKey(live.budgets(), b -> b.namespace() + "/" + b.name()), Objects::equals, ApiState::values);
        compare(out, "priority class", byKey(snapshot.priorityClasses(), pc -> pc.name()),
                byKey(live.priorityClasses(), pc -> pc.name()), Objects::equals, ApiState::values);
        compare(out, "namespace", snapshot.namespaceAnnotations(), live.namespaceAnnotations(), Objects::equals,
                ApiState::values);
        compare(out, "gang minimum", snapshot.gangMinimums(), live.gangMinimums(), Objects::equals, ApiState::values);
        // the lists a snapshot derives once and then carries from change to change
        compare(out, "pod with anti-affinity", byKey(snapshot.podsWithAntiAffinity(), PodInfo::uid),
                byKey(live.podsWithAntiAffinity(), PodInfo::uid), Objects::equals, ApiState::values);
        compare(out, "pod with spread or affinity", byKey(snapshot.podsWithSpreadOrAffinity(), PodInfo::uid),
                byKey(live.podsWithSpreadOrAffinity(), PodInfo::uid), Objects::equals, ApiState::values);
        compare(out, "pod in a gang", byKey(snapshot.podsInGangs(), PodInfo::uid),
                byKey(live.podsInGangs(), PodInfo::uid), Objects::equals, ApiState::values);
        if (!configData.equals(view.configData())) {
            out.add("config map data: API " + configData + ", view " + view.configData());
        }
        return out;
    }

    /**
     * Bound pods in bind order, nominated pods in any order (the scheduler does not order them); cordon,
     * taints and avoid list as the API has them.
     */
    private static boolean sameNode(NodeInfo a, NodeInfo b) {
        return a.labels().equals(b.labels()) && a.allocatable().equals(b.allocatable()) && a.pods().equals(b.pods())
                && a.admission().equals(b.admission())
                && new HashSet<>(a.nominatedPods()).equals(new HashSet<>(b.nominatedPods()))
                && a.requested().equals(b.requested());
    }

    /** A node's difference told by the pods' names, not by whole records. */
    private static String nodeDifference(NodeInfo api, NodeInfo view) {
        return "API " + api.allocatable() + " " + api.labels() + " bound " + names(api.pods()) + " nominated "
                + names(api.nominatedPods()) + "\n    view " + view.allocatable() + " " + view.labels() + " bound "
                + names(view.pods()) + " nominated " + names(view.nominatedPods());
    }

    private static List<String> names(List<PodInfo> pods) {
        return pods.stream().map(p -> p.name() + "@" + p.resourceVersion()).toList();
    }

    private static <V> String values(V api, V view) {
        return "API " + api + "\n    view " + view;
    }

    private interface Same<V> {
        boolean test(V a, V b);
    }

    private interface Tell<V> {
        String difference(V a, V b);
    }

    private static <V> void compare(List<String> out, String what, Map<String, V> api, Map<String, V> live, Same<V> same,
                                    Tell<V> tell) {
        Set<String> keys = new TreeSet<>(api.keySet());
        keys.addAll(live.keySet());
        for (String key : keys) {
            V a = api.get(key);
            V b = live.get(key);
            if (a == null) {
                out.add(what + " " + key + ": not in the API, still in the view");
            } else if (b == null) {
                out.add(what + " " + key + ": in the API, missing from the view");
            } else if (!same.test(a, b)) {
                out.add(what + " " + key + ": " + tell.difference(a, b));
            }
        }
    }

    private static <V> Map<String, V> byKey(Collection<V> values, Function<V, String> key) {
        return values.stream().collect(Collectors.toMap(key, v -> v));
    }
}
