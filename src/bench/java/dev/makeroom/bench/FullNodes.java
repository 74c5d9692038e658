package dev.makeroom.bench;

import dev.makeroom.core.preemption.Candidate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A cluster where preemption is needed and possible, the case it exists for: every node's cpu is
 * requested to the last millicore, so a 500m pod fits nowhere, and on most nodes it fits once two
 * of about fifteen interchangeable priority-0 pods go. Each node of {@code podsPerNode} (at least 20)
 * pods, by slot:
 * <ul>
 *   <li>0: a node agent of priority 100,000 (above the preemptor: never a victim);</li>
 *   <li>1: a log shipper of priority 100 that opts out of preemption;</li>
 *   <li>2–16: fifteen fillers of priority 0, 250m each, replicas of one of 20 Deployments; on every
 *       fifth node they belong to a Deployment whose PodDisruptionBudget allows nothing;</li>
 *   <li>17 on: batch pods (priority 100) and services (1,000, under budgets allowing 0–2), of
 *       several sizes.</li>
 * </ul>
 * Every fourth node is at its pod limit; on one node in 25 every pod below the preemptor opts out,
 * so no room can be made there. Objects are made by index ({@link #node}, {@link #pod}), so an API
 * stub can serve a cluster of any size page by page, and the same objects give the JMH snapshot.
 */
final class FullNodes extends GeneratedCluster {

    static final int PREEMPTOR_PRIORITY = 50_000;
    /** Candidate nodes the scheduler sends: at 5,000 nodes its dry run samples a tenth. */
    static final int CANDIDATES = 500;
    private static final int FIRST_FILLER = 2;
    private static final int FILLERS = 15;
    private static final int FILLER_CPU = 250;
    private static final int FILLER_APPS = 20;
    private static final int SERVICES = 8;
    private static final KubernetesSerialization K8S = new KubernetesSerialization();

    FullNodes(int nodes, int podsPerNode) {
        super(nodes, podsPerNode);
        if (podsPerNode < FIRST_FILLER + FILLERS + 3) {
            throw new IllegalArgumentException("full nodes need at least 20 pods each, not " + podsPerNode);
        }
    }

    @Override
    Node node(int n) {
        String name = nodeName(n);
        long cpu = 0;
        long memoryMi = 0;
        for (int slot = 0; slot < podsPerNode; slot++) {
            cpu += cpuMillis(n, slot);
            memoryMi += memoryMi(slot);
        }
        return new NodeBuilder().withNewMetadata().withName(name).withUid("uid-" + name).withResourceVersion("" + (1 + n))
                .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux")
                .addToLabels("topology.kubernetes.io/zone", "zone-" + n % 3).endMetadata()
                .withNewStatus()
                .addToAllocatable("cpu", new Quantity(cpu + "m"))
                .addToAllocatable("memory", new Quantity((memoryMi + 8192) + "Mi"))
                .addToAllocatable("pods", new Quantity(atPodLimit(n) ? "" + podsPerNode : "110"))
                .addToAllocatable("ephemeral-storage", new Quantity("95Gi"))
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
    }

    @Override
    Pod pod(int i) {
        int n = i / podsPerNode;
        int slot = i % podsPerNode;
        String app = app(n, slot);
        String priorityClass = slot == 0 ? "system" : slot == 1 || batch(slot) ? "batch" : service(slot) ? "service" : null;
        boolean optedOut = slot == 1 || (noRoom(n) && slot > 0);
        String owner = slot <= 1 ? "DaemonSet" : "ReplicaSet";
        return new PodBuilder().withNewMetadata().withName(app + "-" + nodeName(n) + "-" + slot)
                .withNamespace(namespace(slot)).withUid(uid(n, slot)).withResourceVersion("" + (100_000 + i))
                .addToLabels("app", app)
                .addToAnnotations(optedOut ? java.util.Map.of("makeroom.dev/allow-preemption", "false") : java.util.Map.of())
                .addNewOwnerReference().withApiVersion("apps/v1").withKind(owner).withName(app).withUid("owner-" + app)
                .withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName(nodeName(n)).withPriority(priority(slot)).withPriorityClassName(priorityClass)
                .addNewContainer().withName("main").withImage("registry.example.com/" + app + ":1")
                .withNewResources().addToRequests("cpu", new Quantity(cpuMillis(n, slot) + "m"))
                .addToRequests("memory", new Quantity(memoryMi(slot) + "Mi")).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Running").withStartTime("2026-11-20T08:00:00Z").endStatus().build();
    }

    @Override
    List<PriorityClass> priorityClasses() {
        return List.of(priorityClass("system", 100_000), priorityClass("service", 1000), priorityClass("batch", 100),
                priorityClass("critical", PREEMPTOR_PRIORITY));
    }

    /** The guarded fillers' budgets allow nothing; the services' allow 0, 1 or 2. */
    @Override
    List<PodDisruptionBudget> budgets() {
        List<PodDisruptionBudget> budgets = new ArrayList<>();
        for (int k = 0; k < FILLER_APPS; k++) {
            budgets.add(budget("guarded-filler-" + k, namespace(FIRST_FILLER), 0));
        }
        for (int k = 0; k < SERVICES; k++) {
            budgets.add(budget("service-" + k, "team-services", k % 3));
        }
        return budgets;
    }

    @Override
    List<Namespace> namespaces() {
        return IntStream.range(0, 4).mapToObj(k -> new NamespaceBuilder().withNewMetadata()
                .withName(List.of("kube-system", "team-fill", "team-batch", "team-services").get(k))
                .withResourceVersion("" + (1 + k)).endMetadata().build()).toList();
    }

    /** Every object, for a snapshot file or the core's snapshot. */
    List<HasMetadata> objects() {
        List<HasMetadata> objects = new ArrayList<>(namespaces());
        objects.addAll(priorityClasses());
        objects.addAll(budgets());
        for (int n = 0; n < nodes; n++) {
            objects.add(node(n));
        }
        for (int i = 0; i < podCount(); i++) {
            objects.add(pod(i));
        }
        return objects;
    }

    /** The preemptor: 500m, more than any node has free, less than two fillers. */
    static Pod preemptor(String name, String cpu) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("team-batch").withUid("uid-" + name)
                .endMetadata().withNewSpec().withPriority(PREEMPTOR_PRIORITY).withPriorityClassName("critical")
                .addNewContainer().withName("main").withNewResources().addToRequests("cpu", new Quantity(cpu))
                .addToRequests("memory", new Quantity("1Gi")).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Pending").endStatus().build();
    }

    /**
     * Up to {@code count} candidate nodes spread evenly over the cluster, as the scheduler's dry run
     * samples them, of those {@code body} is sent with.
     */
    List<Integer> candidates(int count, PreemptBody body) {
        int step = Math.max(1, nodes / count);
        return IntStream.range(0, Math.min(count, nodes)).map(k -> k * step).filter(body::sentWith).boxed().toList();
    }

    /**
     * The victims the scheduler names on node {@code n} for a preemptor of {@code cpuMillis}: the pods
     * below the preemptor, lowest priority first, until the cpu is free. It knows nothing of
     * makeroom's opt-outs, so on a node where every pod opted out it names some of them.
     */
    List<Pod> schedulersVictims(int n, long cpuMillis) {
        List<Integer> below = IntStream.range(0, podsPerNode).filter(slot -> priority(slot) < PREEMPTOR_PRIORITY)
                .boxed().sorted(Comparator.comparingInt(FullNodes::priority)).toList();
        List<Pod> victims = new ArrayList<>();
        long freed = 0;
        for (int slot : below) {
            if (freed >= cpuMillis) {
                break;
            }
            victims.add(pod(n * podsPerNode + slot));
            freed += cpuMillis(n, slot);
        }
        return victims;
    }

    /** Node {@code n} as a candidate of the core, with the victims the scheduler names there for {@code body}. */
    Candidate candidate(int n, PreemptBody body) {
        List<Pod> victims = schedulersVictims(n, body.cpuMillis());
        return new Candidate(nodeName(n), victims.stream().map(p -> p.getMetadata().getUid()).toList(), guarded(victims));
    }

    /** How many of those victims a budget that allows nothing guards, as the scheduler counts them. */
    static int guarded(List<Pod> victims) {
        return (int) victims.stream().filter(p -> p.getMetadata().getLabels().get("app").startsWith("guarded-")).count();
    }

    /**
     * A preempt body as the kube-scheduler sends it for {@code preemptor} over {@code candidates}: its
     * victims by UID only ({@code NodeNameToMetaVictims}, {@code nodeCacheCapable: true}) or whole.
     */
    String preemptBody(Pod preemptor, List<Integer> candidates, boolean metaVictims) {
        long cpu = new Quantity(preemptor.getSpec().getContainers().get(0).getResources().getRequests().get("cpu")
                .toString()).getNumericalAmount().movePointRight(3).longValue();
        StringBuilder body = new StringBuilder("{\"Pod\":").append(K8S.asJson(preemptor))
                .append(metaVictims ? ",\"NodeNameToVictims\":null,\"NodeNameToMetaVictims\":{"
                        : ",\"NodeNameToMetaVictims\":null,\"NodeNameToVictims\":{");
        for (int k = 0; k < candidates.size(); k++) {
            int n = candidates.get(k);
            List<Pod> victims = schedulersVictims(n, cpu);
            List<String> pods = victims.stream().map(p -> metaVictims
                    ? "{\"UID\":\"" + p.getMetadata().getUid() + "\"}" : K8S.asJson(p)).toList();
            body.append(k == 0 ? "" : ",").append('"').append(nodeName(n)).append("\":{\"Pods\":[")
                    .append(String.join(",", pods)).append("],\"NumPDBViolations\":").append(guarded(victims)).append('}');
        }
        return body.append("}}").toString();
    }

    static String nodeName(int n) {
        return "node-" + n;
    }

    private static String uid(int n, int slot) {
        return "uid-" + n + "-" + slot;
    }

    private static boolean filler(int slot) {
        return slot >= FIRST_FILLER && slot < FIRST_FILLER + FILLERS;
    }

    private static boolean batch(int slot) {
        return slot >= FIRST_FILLER + FILLERS && slot % 2 == 0;
    }

    private static boolean service(int slot) {
        return slot >= FIRST_FILLER + FILLERS && slot % 2 == 1;
    }

    private static int priority(int slot) {
        return slot == 0 ? 100_000 : slot == 1 || batch(slot) ? 100 : service(slot) ? 1000 : 0;
    }

    private static String app(int n, int slot) {
        if (slot == 0) {
            return "node-agent";
        }
        if (slot == 1) {
            return "log-shipper";
        }
        if (filler(slot)) {
            return (n % 5 == 4 ? "guarded-filler-" : "filler-") + n % FILLER_APPS;
        }
        return batch(slot) ? "batch-" + (n + slot) % 40 : "service-" + slot % SERVICES;
    }

    private static String namespace(int slot) {
        return slot <= 1 ? "kube-system" : filler(slot) ? "team-fill" : batch(slot) ? "team-batch" : "team-services";
    }

    private static long cpuMillis(int n, int slot) {
        if (slot <= 1) {
            return 100;
        }
        return filler(slot) ? FILLER_CPU : 200 + 100L * ((n + slot) % 5);
    }

    private static long memoryMi(int slot) {
        return slot <= 1 ? 128 : filler(slot) ? 512 : 256L * (1 + slot % 4);
    }

    static boolean atPodLimit(int n) {
        return n % 4 == 3;
    }

    /** One node in 25 where every pod below the preemptor opts out: no room can be made there. */
    private static boolean noRoom(int n) {
        return n % 25 == 12;
    }

    private static PriorityClass priorityClass(String name, int value) {
        return new PriorityClassBuilder().withNewMetadata().withName(name).endMetadata().withValue(value).build();
    }

    private static PodDisruptionBudget budget(String app, String namespace, int allowed) {
        return new PodDisruptionBudgetBuilder().withNewMetadata().withName(app).withNamespace(namespace).endMetadata()
                .withNewSpec().withNewSelector().addToMatchLabels("app", app).endSelector().endSpec()
                .withNewStatus().withDisruptionsAllowed(allowed).endStatus().build();
    }
}
