package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.queue.QueueTree;
import dev.makeroom.core.queue.QueueUsage;
import dev.makeroom.core.room.Eligibility;
import dev.makeroom.core.room.NodeVerdict;
import dev.makeroom.core.room.Protection;
import dev.makeroom.core.room.QueueRules;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cluster with queues, changed step by step the way the scheduler and controllers would: bind
 * pods, evict victims, re-create a ReplicaSet's pod. Pods ask for whole CPUs.
 */
final class QueueWorld {

    private final QueueTree tree;
    private final Map<String, Long> nodes = new LinkedHashMap<>();
    private final Map<String, PodInfo> pods = new LinkedHashMap<>();
    private long resourceVersion = 100;
    private Duration pendingFor = Duration.ofHours(1);

    QueueWorld(QueueTree tree) {
        this.tree = tree;
    }

    QueueWorld node(String name, int cpus) {
        nodes.put(name, cpus * 1000L);
        return this;
    }

    /** A pod of queue {@code queue} (a full name), application {@code app}, priority and CPUs. */
    static PodInfo.Builder pod(String name, String queue, String app, int priority, int cpus) {
        return PodInfo.builder(name).name(name).queueHint(queue).applicationId(app).priority(priority)
                .requests(Resources.of("cpu", cpus * 1000L)).qos(QosClass.GUARANTEED);
    }

    QueueWorld run(String node, PodInfo.Builder pod) {
        PodInfo built = pod.nodeName(node).resourceVersion(++resourceVersion)
                .startTime(Scenario.EPOCH.plusSeconds(resourceVersion)).build();
        pods.put(built.uid(), built);
        return this;
    }

    /** Fills the node with {@code count} one-CPU pods of a ReplicaSet ({@code app}) in {@code queue}. */
    QueueWorld replicas(String node, String app, String queue, int priority, int count) {
        for (int i = 0; i < count; i++) {
            run(node, pod(app + "-" + (resourceVersion + 1), queue, app, priority, 1));
        }
        return this;
    }

    QueueWorld pendingFor(Duration waited) {
        this.pendingFor = waited;
        return this;
    }

    ClusterSnapshot snapshot() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        nodes.forEach((name, cpu) -> b.node(name, Map.of("kubernetes.io/hostname", name),
                Resources.of("cpu", cpu, Resources.PODS, 110L)));
        pods.values().forEach(b::pod);
        return b.build();
    }

    QueueUsage usage() {
        return QueueUsage.of(snapshot(), tree);
    }

    PreemptionDecision decide(PodInfo pending) {
        return decide(Scenario.minimal(), pending);
    }

    PreemptionDecision decide(Decider engine, PodInfo pending) {
        ClusterSnapshot snapshot = snapshot();
        return engine.decide(snapshot, pending, List.copyOf(nodes.keySet()), rules(snapshot, pending));
    }

    private QueueRules rules(ClusterSnapshot snapshot, PodInfo pending) {
        return QueueRules.forPending(QueueUsage.of(snapshot, tree), pending, snapshot.namespaceAnnotations(), pendingFor);
    }

    /** What the scheduler and the ReplicaSet controllers do after a preemption: victims go, the pod binds, victims return pending. */
    List<PodInfo> enact(PreemptionDecision decision, PodInfo pending) {
        NodeVerdict chosen = decision.chosen().get(0);
        List<PodInfo> recreated = new ArrayList<>();
        for (PodInfo victim : chosen.victims().victims()) {
            pods.remove(victim.uid());
            recreated.add(PodInfo.builder(victim.uid() + "-again").name(victim.name() + "-again")
                    .queueHint(victim.queueHint()).applicationId(victim.applicationId()).priority(victim.priority())
                    .requests(victim.requests()).qos(victim.qos()).build());
        }
        run(chosen.node(), pending.toBuilder());
        return recreated;
    }

    /** Every pod the decision evicts, by name, over the nodes answered. */
    static List<String> victims(PreemptionDecision decision) {
        return decision.chosen().stream().flatMap(v -> v.victims().victims().stream()).map(PodInfo::name).toList();
    }

    static Protection protectionOf(QueueWorld world, PodInfo pending, String runningName) {
        ClusterSnapshot snapshot = world.snapshot();
        PodInfo running = snapshot.pods().stream().filter(p -> p.name().equals(runningName)).findFirst().orElseThrow();
        return Eligibility.toPreempt(pending, snapshot, world.rules(snapshot, pending)).protectionOf(running);
    }
}
