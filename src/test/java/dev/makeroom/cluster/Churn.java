package dev.makeroom.cluster;

import dev.makeroom.mapping.PodGroupKind;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodRef;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.mapping.AvoidPodsAnnotation;
import dev.makeroom.mapping.ReservationAnnotation;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;

/**
 * A busy cluster's changes, one at a time, through the API: pods created, nominated, bound,
 * made terminating, finished and deleted, some with tolerations and node selectors; nodes resized,
 * relabelled, cordoned, tainted, given avoid-list entries and reservations; budgets' allowances,
 * namespaces' annotations, PriorityClasses and makeroom's ConfigMap changed. Seeded, so a
 * failing run can be replayed.
 */
final class Churn {

    static final int NODES = 8;
    static final List<String> NAMESPACES = List.of("default", "batch", "shop");

    private final KubernetesClient api;
    private final Random random;
    private int created;
    long operations;

    Churn(KubernetesClient api, long seed) {
        this.api = api;
        this.random = new Random(seed);
    }

    /** The cluster the churn starts from. */
    void seed() {
        for (String ns : NAMESPACES) {
            api.resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        }
        api.resource(new NamespaceBuilder().withNewMetadata().withName("makeroom-system").endMetadata().build()).create();
        for (int i = 0; i < NODES; i++) {
            api.resource(KubernetesClusterViewTest.node("node-" + i, "8")).create();
        }
        for (String ns : NAMESPACES) {
            api.resource(new PodDisruptionBudgetBuilder().withNewMetadata().withName("guard").withNamespace(ns).endMetadata()
                    .withNewSpec().withNewSelector().addToMatchLabels("app", "a0").endSelector().endSpec()
                    .withNewStatus().withDisruptionsAllowed(1).endStatus().build()).create();
        }
        for (int i = 0; i < 3; i++) {
            api.resource(priorityClass("tier-" + i, 100 * (i + 1), false)).create();
        }
        api.resource(new ConfigMapBuilder().withNewMetadata().withName("makeroom-queues").withNamespace("makeroom-system")
                .endMetadata().addToData("queues.yaml", "queues: []").build()).create();
        for (int i = 0; i < 40; i++) {
            createPod(true);
        }
    }

    /** One change, chosen at random; changes that find nothing to act on do nothing. */
    void step() {
        operations++;
        int dice = random.nextInt(100);
        if (dice < 25) {
            createPod(random.nextBoolean());
        } else if (dice < 40) {
            onSomePod(p -> p.getSpec().getNodeName() == null,
                    p -> api.resource(new PodBuilder(p).editSpec().withNodeName(someNode()).endSpec()
                            .editStatus().withPhase("Running").endStatus().build()).update());
        } else if (dice < 45) {
            onSomePod(p -> p.getSpec().getNodeName() == null,
                    p -> api.resource(new PodBuilder(p).editStatus().withNominatedNodeName(someNode()).endStatus().build())
                            .updateStatus());
        } else if (dice < 62) {
            onSomePod(p -> true, p -> api.resource(p).delete());
        } else if (dice < 66) {
            onSomePod(p -> p.getSpec().getNodeName() != null, p -> api.resource(new PodBuilder(p).editStatus()
                    .withPhase("Succeeded").endStatus().build()).updateStatus());
        } else if (dice < 70) {
            // a finalizer keeps the pod terminating until a later change removes it
            onSomePod(p -> p.getMetadata().getFinalizers().isEmpty() && p.getMetadata().getDeletionTimestamp() == null,
                    p -> {
                        Pod held = api.resource(new PodBuilder(p).editMetadata().addToFinalizers("example.com/hold")
                                .endMetadata().build()).update();
                        api.resource(held).delete();
                    });
        } else if (dice < 74) {
            onSomePod(p -> !p.getMetadata().getFinalizers().isEmpty(), p -> api.resource(new PodBuilder(p).editMetadata()
                    .withFinalizers().endMetadata().build()).update());
        } else if (dice < 80) {
            String node = someNode();
            api.nodes().withName(node).edit(n -> new NodeBuilder(n).editStatus()
                    .addToAllocatable("cpu", new Quantity(String.valueOf(4 + random.nextInt(8)))).endStatus().build());
        } else if (dice < 83) {
            changeNodeAdmission();
        } else if (dice < 90) {
            String ns = NAMESPACES.get(random.nextInt(NAMESPACES.size()));
            int allowed = random.nextInt(3);
            api.policy().v1().podDisruptionBudget().inNamespace(ns).withName("guard").edit(b ->
                    new PodDisruptionBudgetBuilder(b).editStatus().withDisruptionsAllowed(allowed).endStatus().build());
        } else if (dice < 94) {
            String ns = NAMESPACES.get(random.nextInt(NAMESPACES.size()));
            String queue = "root.q" + random.nextInt(3);
            api.namespaces().withName(ns).edit(n -> new NamespaceBuilder(n).editMetadata()
                    .addToAnnotations("makeroom.dev/queue", queue).endMetadata().build());
        } else if (dice < 96) {
            changePodGroup();
        } else if (dice < 98) {
            String name = "tier-" + random.nextInt(3);
            boolean optedOut = random.nextBoolean();
            api.scheduling().v1().priorityClasses().withName(name).edit(pc -> new PriorityClassBuilder(pc)
                    .editMetadata().addToAnnotations("makeroom.dev/allow-preemption", String.valueOf(!optedOut))
                    .endMetadata().build());
        } else {
            String document = "queues: [] # " + random.nextInt(1000);
            api.configMaps().inNamespace("makeroom-system").withName("makeroom-queues")
                    .edit(c -> new ConfigMapBuilder(c).addToData("queues.yaml", document).build());
        }
    }

    /** A gang's coscheduling PodGroup (the gangs pods join are g-a0..g-a2) created, given a new minimum, or deleted. */
    private void changePodGroup() {
        String ns = NAMESPACES.get(random.nextInt(NAMESPACES.size()));
        String name = "g-a" + random.nextInt(3);
        var groups = api.genericKubernetesResources(PodGroupMinimumsOverApiTest.context(PodGroupKind.COSCHEDULING))
                .inNamespace(ns);
        if (random.nextInt(3) == 0) {
            groups.withName(name).delete();
        } else {
            groups.resource(PodGroupMinimumsOverApiTest.coscheduling(ns, name, 1 + random.nextInt(4)))
                    .createOr(existing -> existing.update());
        }
    }

    /**
     * A node relabelled, cordoned or uncordoned, tainted, given an avoid-list entry or held for a
     * pending pod, or its hold ended (as the rescheduler writes them).
     */
    private void changeNodeAdmission() {
        String node = someNode();
        switch (random.nextInt(6)) {
            case 0 -> api.nodes().withName(node).edit(n -> new NodeBuilder(n).editMetadata()
                    .addToLabels("zone", "z" + random.nextInt(3)).endMetadata().build());
            case 1 -> {
                boolean cordon = random.nextBoolean();
                api.nodes().withName(node).edit(n -> new NodeBuilder(n).editOrNewSpec().withUnschedulable(cordon)
                        .endSpec().build());
            }
            case 2 -> {
                String effect = random.nextBoolean() ? "NoSchedule" : "PreferNoSchedule";
                api.nodes().withName(node).edit(n -> new NodeBuilder(n).editOrNewSpec().withTaints(new TaintBuilder()
                        .withKey("dedicated").withValue("g" + random.nextInt(2)).withEffect(effect).build()).endSpec().build());
            }
            case 4 -> api.nodes().withName(node).edit(n -> ReservationAnnotation.with(n, new Reservation(
                    new PodRef("team", "p" + random.nextInt(Math.max(1, created)), "uid-" + random.nextInt(50)),
                    Instant.parse("2026-11-23T12:00:00Z").plusSeconds(random.nextInt(600)))));
            case 5 -> api.nodes().withName(node).edit(n -> ReservationAnnotation.without(n,
                    ReservationAnnotation.read(n.getMetadata().getAnnotations()).stream().findFirst()
                            .map(r -> r.pod().uid()).orElse("none")));
            default -> {
                int app = random.nextInt(3);
                api.nodes().withName(node).edit(n -> AvoidPodsAnnotation.with(n,
                        new OwnerRef("ReplicaSet", "rs-" + app, "rs-uid-" + app), "makeroom rebalance", "churn",
                        Instant.parse("2026-11-23T12:00:00Z"), Duration.ofHours(random.nextInt(3))));
            }
        }
    }

    private void createPod(boolean bound) {
        String ns = NAMESPACES.get(random.nextInt(NAMESPACES.size()));
        int tier = random.nextInt(3);
        Pod pod = new PodBuilder().withNewMetadata().withName("p" + created++).withNamespace(ns)
                .addToLabels("app", "a" + random.nextInt(3)).endMetadata()
                .withNewSpec().withNodeName(bound ? someNode() : null).withPriorityClassName("tier-" + tier)
                .withPriority(100 * (tier + 1)).addNewContainer().withName("c").withNewResources()
                .addToRequests("cpu", new Quantity((100 + random.nextInt(900)) + "m"))
                .addToRequests("memory", new Quantity((64 + random.nextInt(512)) + "Mi")).endResources().endContainer()
                .endSpec().withNewStatus().withPhase(bound ? "Running" : "Pending")
                .withConditions(bound || random.nextBoolean() ? List.of() : List.of(new PodConditionBuilder()
                        .withType("PodScheduled").withStatus("False").withReason("Unschedulable")
                        .withLastTransitionTime("2026-11-23T12:0" + random.nextInt(10) + ":00Z").build()))
                .endStatus().build();
        if (random.nextInt(3) == 0) { // what the rescheduler reads of a pod: tolerations, a node selector
            pod = new PodBuilder(pod).editSpec().addNewToleration().withKey("dedicated").withOperator("Exists")
                    .endToleration().addToNodeSelector("zone", "z" + random.nextInt(3)).endSpec().build();
        }
        if (random.nextInt(4) == 0) { // what the indexed lists carry: required anti-affinity, topology spread
            String app = pod.getMetadata().getLabels().get("app");
            pod = random.nextBoolean()
                    ? new PodBuilder(pod).editSpec().withNewAffinity().withNewPodAntiAffinity()
                        .addNewRequiredDuringSchedulingIgnoredDuringExecution().withTopologyKey("kubernetes.io/hostname")
                        .withNewLabelSelector().addToMatchLabels("app", app).endLabelSelector()
                        .endRequiredDuringSchedulingIgnoredDuringExecution().endPodAntiAffinity().endAffinity().endSpec().build()
                    : new PodBuilder(pod).editSpec().addNewTopologySpreadConstraint().withMaxSkew(1)
                        .withTopologyKey("zone").withWhenUnsatisfiable("DoNotSchedule").withNewLabelSelector()
                        .addToMatchLabels("app", app).endLabelSelector().endTopologySpreadConstraint().endSpec().build();
        }
        if (random.nextInt(5) == 0) { // what the gang list carries
            pod.getMetadata().getLabels().put("scheduling.x-k8s.io/pod-group", "g-" + pod.getMetadata().getLabels().get("app"));
        }
        api.resource(pod).create();
    }

    private void onSomePod(java.util.function.Predicate<Pod> which, java.util.function.Consumer<Pod> change) {
        List<Pod> pods = api.pods().inAnyNamespace().list().getItems().stream().filter(which).toList();
        if (!pods.isEmpty()) {
            change.accept(pods.get(random.nextInt(pods.size())));
        }
    }

    private String someNode() {
        return "node-" + random.nextInt(NODES);
    }

    private static io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass priorityClass(String name, int value,
                                                                                             boolean optedOut) {
        return new PriorityClassBuilder().withNewMetadata().withName(name)
                .addToAnnotations("makeroom.dev/allow-preemption", String.valueOf(!optedOut)).endMetadata()
                .withValue(value).build();
    }
}
