package dev.makeroom.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;

import java.util.Random;

/**
 * Kubernetes objects as an API server returns them, for load and memory measurements: nodes with
 * the status a kubelet reports (images, conditions), pods with what makeroom drops (env, volumes,
 * tolerations, conditions) as well as what it keeps. Deterministic for a given Random.
 */
public final class SyntheticObjects {

    public static final int APPS = 400;

    private SyntheticObjects() {
    }

    public static Node node(String name, long resourceVersion) {
        return node(name, resourceVersion, "2026-11-22T00:00:00Z");
    }

    /** A node whose kubelet last reported at {@code heartbeat}: what changes in a node between two scheduling cycles. */
    public static Node node(String name, long resourceVersion, String heartbeat) {
        NodeBuilder b = new NodeBuilder().withNewMetadata().withName(name).withUid("uid-" + name)
                .withResourceVersion("" + resourceVersion)
                .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux")
                .addToLabels("node.kubernetes.io/instance-type", "m5.4xlarge")
                .addToLabels("topology.kubernetes.io/zone", "zone-" + Math.floorMod(name.hashCode(), 3))
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
                .addToAnnotations("volumes.kubernetes.io/controller-managed-attach-detach", "true").endMetadata()
                .withNewSpec().withPodCIDR("10.244.0.0/24").withProviderID("aws:///zone-a/i-" + name).endSpec();
        var status = b.withNewStatus()
                .addToCapacity("cpu", new Quantity("16")).addToCapacity("memory", new Quantity("64Gi"))
                .addToCapacity("pods", new Quantity("110")).addToCapacity("ephemeral-storage", new Quantity("100Gi"))
                .addToAllocatable("cpu", new Quantity("15890m")).addToAllocatable("memory", new Quantity("62Gi"))
                .addToAllocatable("pods", new Quantity("110")).addToAllocatable("ephemeral-storage", new Quantity("95Gi"));
        for (String type : new String[] {"MemoryPressure", "DiskPressure", "PIDPressure", "Ready"}) {
            status.addNewCondition().withType(type).withStatus(type.equals("Ready") ? "True" : "False")
                    .withReason("Kubelet" + type).withMessage("kubelet reports " + type)
                    .withLastHeartbeatTime(heartbeat).withLastTransitionTime("2026-11-01T00:00:00Z")
                    .endCondition();
        }
        for (int i = 0; i < 20; i++) {
            status.addNewImage().withNames("registry.example.com/team/app-" + i + "@sha256:" + "0".repeat(64),
                    "registry.example.com/team/app-" + i + ":1.2." + i).withSizeBytes(50_000_000L + i).endImage();
        }
        return status.withNewNodeInfo().withKubeletVersion("v1.26.4").withContainerRuntimeVersion("containerd://1.7.2")
                .withOsImage("Ubuntu 22.04").withKernelVersion("5.15.0").withArchitecture("amd64")
                .withOperatingSystem("linux").endNodeInfo().endStatus().build();
    }

    /** A pod of one of {@link #APPS} workloads; a third are services (priority 1000), the rest batch (100). */
    public static Pod pod(String node, int index, Random random, long resourceVersion) {
        int app = random.nextInt(APPS);
        String hash = Integer.toHexString(app * 7919);
        boolean service = app % 3 == 0;
        return new PodBuilder().withNewMetadata().withName("app-" + app + "-" + hash + "-" + node + "-" + index)
                .withNamespace("team-" + app % 40).withUid("uid-" + node + "-" + index)
                .withResourceVersion("" + resourceVersion).withCreationTimestamp("2026-11-20T08:00:00Z")
                .addToLabels("app", "app-" + app).addToLabels("pod-template-hash", hash)
                .addToLabels("team", "team-" + app % 40)
                .addToAnnotations("kubectl.kubernetes.io/restartedAt", "2026-11-19T10:00:00Z")
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName("app-" + app + "-" + hash)
                .withUid("rs-" + app).withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName(node).withPriority(service ? 1000 : 100)
                .withPriorityClassName(service ? "service" : "batch").withServiceAccountName("default")
                .addNewContainer().withName("main").withImage("registry.example.com/team/app-" + app + ":1.2.3")
                .addNewEnv().withName("LOG_LEVEL").withValue("info").endEnv()
                .withNewResources().addToRequests("cpu", new Quantity((100 + app % 5 * 100) + "m"))
                .addToRequests("memory", new Quantity((128 << (app % 4)) + "Mi"))
                .addToLimits("memory", new Quantity((256 << (app % 4)) + "Mi")).endResources()
                .addNewVolumeMount().withName("kube-api-access").withMountPath("/var/run/secrets/kubernetes.io/serviceaccount")
                .endVolumeMount().endContainer()
                .addNewVolume().withName("kube-api-access").withNewProjected().endProjected().endVolume()
                .addNewToleration().withKey("node.kubernetes.io/not-ready").withOperator("Exists").withEffect("NoExecute")
                .withTolerationSeconds(300L).endToleration().endSpec()
                .withNewStatus().withPhase("Running").withQosClass("Burstable")
                .withStartTime("2026-11-20T08:" + String.format("%02d:%02d", index % 60, app % 60) + "Z")
                .withPodIP("10.0." + Math.floorMod(node.hashCode(), 250) + "." + index).addNewCondition().withType("Ready")
                .withStatus("True").endCondition().endStatus().build();
    }

    public static PriorityClass priorityClass(String name, int value) {
        return new PriorityClassBuilder().withNewMetadata().withName(name).endMetadata().withValue(value).build();
    }

    /** A budget over one app's pods, allowing {@code allowed} disruptions. */
    public static PodDisruptionBudget budget(int app, int allowed) {
        return new PodDisruptionBudgetBuilder().withNewMetadata().withName("app-" + app).withNamespace("team-" + app % 40)
                .endMetadata().withNewSpec().withNewSelector().addToMatchLabels("app", "app-" + app).endSelector().endSpec()
                .withNewStatus().withDisruptionsAllowed(allowed).endStatus().build();
    }
}
