package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.KubeVersion;
import dev.makeroom.mapping.SnapshotMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;

import java.util.ArrayList;
import java.util.List;

/**
 * The cluster as the API lists it now, for a question asked once (the "why" from a laptop): one list
 * each of nodes, pods, PodDisruptionBudgets, PriorityClasses and namespaces, no informers, no watch.
 */
public final class ApiSnapshot {

    private ApiSnapshot() {
    }

    /** A client from the kubeconfig (or in-cluster), which answers an unreachable API at once rather than retrying. */
    public static KubernetesClient client() {
        return UnretriedClient.of(Config.autoConfigure(null));
    }

    /**
     * The API server's Kubernetes version, or null when it does not answer one makeroom reads: the
     * question is about a pod, and the newest tested version's rules can still answer it.
     */
    public static KubeVersion version(KubernetesClient client) {
        try {
            VersionInfo info = client.getKubernetesVersion();
            return KubeVersion.of(info.getMajor(), info.getMinor());
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Lists each kind once; a KubernetesClientException says why the API did not answer. */
    public static ClusterSnapshot read(KubernetesClient client) {
        List<HasMetadata> objects = new ArrayList<>();
        objects.addAll(client.namespaces().list().getItems());
        objects.addAll(client.scheduling().v1().priorityClasses().list().getItems());
        objects.addAll(client.nodes().list().getItems());
        objects.addAll(client.pods().inAnyNamespace().list().getItems());
        objects.addAll(client.policy().v1().podDisruptionBudget().inAnyNamespace().list().getItems());
        objects.addAll(devices(client));
        return SnapshotMapper.toSnapshot(objects);
    }

    /** DRA's slices, classes and claims ({@code resource.k8s.io/v1}); none where the server does not serve them (404). */
    private static List<HasMetadata> devices(KubernetesClient client) {
        List<HasMetadata> objects = new ArrayList<>();
        try {
            objects.addAll(client.resources(ResourceSlice.class).list().getItems());
            objects.addAll(client.resources(DeviceClass.class).list().getItems());
            objects.addAll(client.resources(ResourceClaim.class).inAnyNamespace().list().getItems());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
            return List.of();
        }
        return objects;
    }
}
