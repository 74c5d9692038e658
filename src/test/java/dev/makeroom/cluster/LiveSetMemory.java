package dev.makeroom.cluster;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.makeroom.core.model.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.informers.cache.ReducedStateItemStore;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Random;

/**
 * Measures the live view's heap for a generated cluster (default 5,000 nodes, 150,000 pods): the
 * objects go through the same mapping and state code as informer events, and through the same
 * reduced item stores the informers keep. Prints the retained heap after a full GC.
 *
 * <p>{@code ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=dev.makeroom.cluster.LiveSetMemory -Dbench.args="5000 30"}
 */
public final class LiveSetMemory {

    public static void main(String[] args) {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int podsPerNode = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        long before = usedAfterGc();

        KubernetesSerialization serialization = new KubernetesSerialization();
        ReducedStateItemStore<Node> nodeStore = new ReducedStateItemStore<>(ReducedStateItemStore.NAME_KEY_STATE,
                Node.class, serialization, "metadata.uid");
        ReducedStateItemStore<Pod> podStore = new ReducedStateItemStore<>(ReducedStateItemStore.NAME_KEY_STATE,
                Pod.class, serialization, "metadata.uid");
        LiveClusterState state = new LiveClusterState(new EvictionMemory(Duration.ofMinutes(10), Ticker.systemTicker()));
        Random random = new Random(7);
        long rv = 1;
        for (int n = 0; n < nodes; n++) {
            Node node = node("node-" + n, rv++);
            nodeStore.put(nodeStore.getKey(node), node);
            state.apply(new ClusterEvent(ClusterEvent.Kind.NODE, false, node));
            for (int i = 0; i < podsPerNode; i++) {
                Pod pod = pod(n, i, random, rv++);
                podStore.put(podStore.getKey(pod), pod);
                state.apply(new ClusterEvent(ClusterEvent.Kind.POD, false, pod));
            }
            if (n % 500 == 499) {
                state.publish(); // as the applier does per batch
            }
        }
        ClusterSnapshot snapshot = state.publish();
        long after = usedAfterGc();
        System.out.printf("nodes %d, pods %d: live set %.1f MB (heap after full GC, minus the empty baseline)%n",
                snapshot.nodes().size(), snapshot.pods().size(), (after - before) / 1024.0 / 1024.0);
        // keep everything reachable until measured
        if (nodeStore.size() + podStore.size() + snapshot.pods().size() == 42) {
            System.out.println(state);
        }
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static Node node(String name, long rv) {
        return new NodeBuilder().withNewMetadata().withName(name).withUid("uid-" + name).withResourceVersion("" + rv)
                .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux")
                .addToLabels("node.kubernetes.io/instance-type", "m5.4xlarge")
                .addToLabels("topology.kubernetes.io/zone", "zone-" + name.hashCode() % 3).endMetadata()
                .withNewStatus().addToAllocatable("cpu", new Quantity("15890m")).addToAllocatable("memory", new Quantity("62Gi"))
                .addToAllocatable("pods", new Quantity("110")).addToAllocatable("ephemeral-storage", new Quantity("95Gi"))
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }

    /** A pod as the API returns it, with the fields makeroom drops (env, volumes, conditions, ...). */
    private static Pod pod(int node, int i, Random random, long rv) {
        int app = random.nextInt(400);
        String hash = Integer.toHexString(app * 7919);
        return new PodBuilder().withNewMetadata().withName("app-" + app + "-" + hash + "-" + node + "x" + i)
                .withNamespace("team-" + app % 40).withUid("uid-" + node + "-" + i).withResourceVersion("" + rv)
                .withCreationTimestamp("2026-11-20T08:00:00Z")
                .addToLabels("app", "app-" + app).addToLabels("pod-template-hash", hash)
                .addToLabels("team", "team-" + app % 40)
                .addToAnnotations("kubectl.kubernetes.io/restartedAt", "2026-11-19T10:00:00Z")
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName("app-" + app + "-" + hash)
                .withUid("rs-" + app).withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName("node-" + node).withPriority(app % 3 == 0 ? 1000 : 100)
                .withPriorityClassName(app % 3 == 0 ? "service" : "batch").withServiceAccountName("default")
                .addNewContainer().withName("main").withImage("registry.example.com/team/app-" + app + ":1.2.3")
                .addNewEnv().withName("LOG_LEVEL").withValue("info").endEnv()
                .addNewEnv().withName("POD_NAME").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.name")
                .endFieldRef().endValueFrom().endEnv()
                .withNewResources().addToRequests("cpu", new Quantity((100 + app % 5 * 100) + "m"))
                .addToRequests("memory", new Quantity((128 << (app % 4)) + "Mi"))
                .addToLimits("memory", new Quantity((256 << (app % 4)) + "Mi")).endResources()
                .addNewVolumeMount().withName("kube-api-access").withMountPath("/var/run/secrets/kubernetes.io/serviceaccount")
                .endVolumeMount().endContainer()
                .addNewVolume().withName("kube-api-access").withNewProjected().endProjected().endVolume()
                .addNewToleration().withKey("node.kubernetes.io/not-ready").withOperator("Exists").withEffect("NoExecute")
                .withTolerationSeconds(300L).endToleration().endSpec()
                .withNewStatus().withPhase("Running").withQosClass("Burstable").withStartTime("2026-11-20T08:00:05Z")
                .withPodIP("10.0." + node % 250 + "." + i).addNewCondition().withType("Ready").withStatus("True")
                .endCondition().addNewContainerStatus().withName("main").withReady(true).withRestartCount(0)
                .endContainerStatus().endStatus().build();
    }
}
