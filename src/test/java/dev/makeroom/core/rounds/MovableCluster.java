package dev.makeroom.core.rounds;

import dev.makeroom.core.model.Avoidance;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.model.SpreadConstraint;
import dev.makeroom.core.model.Taint;
import dev.makeroom.core.model.Toleration;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Small random clusters with something to move: nodes of two pools, some cordoned or tainted, loaded
 * unevenly; pods of a few Deployments (some pinned to a pool by node selector, some tolerating the
 * taint, some keeping apart from their own replicas per node or per zone, some spread across zones or
 * nodes, some needing another app in their zone, some using a host port), plus pods that must stay
 * (bare, DaemonSet, opted out). Nodes are in three zones; every fourth has no zone label.
 */
public record MovableCluster(ClusterSnapshot snapshot) {

    static final Taint DEDICATED = new Taint("dedicated", "gpu", "NoSchedule");
    static final String ZONE = "topology.kubernetes.io/zone";

    public static MovableCluster generate(long seed) {
        return generate(seed, true);
    }

    /** As above; without {@code interPod}, no pod has topology spread, pod affinity or zone anti-affinity. */
    public static MovableCluster generate(long seed, boolean interPod) {
        Random random = new Random(seed);
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        int nodes = 2 + random.nextInt(7);
        for (int n = 0; n < nodes; n++) {
            String pool = random.nextBoolean() ? "a" : "b";
            NodeAdmission admission = switch (random.nextInt(6)) {
                case 0 -> new NodeAdmission(true, List.of());
                case 1 -> new NodeAdmission(false, List.of(DEDICATED));
                default -> NodeAdmission.OPEN;
            };
            b.node("node-" + n, n % 4 == 3 ? Map.of("pool", pool, PodAffinityTerm.HOSTNAME, "node-" + n)
                            : Map.of("pool", pool, PodAffinityTerm.HOSTNAME, "node-" + n, ZONE, "zone-" + n % 3),
                    Resources.of("cpu", 4000, "memory", 8000, "pods", 8), admission);
        }
        int pod = 0;
        for (int n = 0; n < nodes; n++) {
            int count = random.nextInt(n % 2 == 0 ? 7 : 3); // even nodes loaded more
            for (int i = 0; i < count; i++) {
                b.pod(pod(random, pod++, "node-" + n, interPod));
            }
        }
        return new MovableCluster(b.build());
    }

    public static PodInfo pod(Random random, int index, String node, boolean interPod) {
        int app = random.nextInt(4);
        PodInfo.Builder pod = PodInfo.builder("uid-" + index).name("pod-" + index).namespace("ns-" + (app % 2))
                .nodeName(node).priority(random.nextInt(3) * 100)
                .requests(Resources.of("cpu", 250L * (1 + random.nextInt(4)), "memory", 500L * (1 + random.nextInt(4))))
                .labels(Map.of("app", "app-" + app))
                .startTime(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(index))
                .controller(new OwnerRef("ReplicaSet", "rs-" + app, "rs-uid-" + app));
        int kind = random.nextInt(15);
        switch (interPod || kind < 7 || kind > 10 ? kind : 11) {
            case 0 -> pod.controller(null);
            case 1 -> pod.controller(new OwnerRef("DaemonSet", "ds", "ds-uid"));
            case 2 -> pod.optedOut(true);
            case 3 -> pod.constraints(new SchedulingConstraints(List.of(), List.of(),
                    List.of(LabelSelector.matching(Map.of("pool", random.nextBoolean() ? "a" : "b"))), List.of()));
            case 4 -> pod.tolerations(List.of(new Toleration("dedicated", "Exists", null, null)));
            case 5 -> pod.antiAffinity(List.of(new PodAffinityTerm(LabelSelector.matching(Map.of("app", "app-" + app)),
                    Set.of(), false, PodAffinityTerm.HOSTNAME)));
            case 6 -> pod.hostPorts(List.of(new HostPort("0.0.0.0", "TCP", 8080)));
            case 7, 8 -> pod.constraints(new SchedulingConstraints(List.of(), List.of(new SpreadConstraint(1,
                    random.nextBoolean() ? ZONE : PodAffinityTerm.HOSTNAME,
                    LabelSelector.matching(Map.of("app", "app-" + app)), 1, true)), List.of(), List.of()));
            case 9 -> pod.antiAffinity(List.of(new PodAffinityTerm(LabelSelector.matching(Map.of("app", "app-" + app)),
                    Set.of(), false, ZONE)));
            case 10 -> pod.constraints(new SchedulingConstraints(List.of(new PodAffinityTerm(
                    LabelSelector.matching(Map.of("app", "app-" + ((app + 1) % 4))), Set.of(), false, ZONE)),
                    List.of(), List.of(), List.of()));
            default -> { }
        }
        return pod.build();
    }

    /**
     * The snapshot once the moves are done and each replacement runs where it was expected, with the
     * nodes left recording the moved pods' controllers in their avoid lists for an hour after {@code now}.
     */
    public ClusterSnapshot after(List<Move> moves, Instant now) {
        ClusterSnapshot.Change change = snapshot.change();
        Map<String, List<PodInfo>> pods = new HashMap<>();
        snapshot.nodes().forEach(n -> pods.put(n.name(), new ArrayList<>(n.pods())));
        for (Move move : moves) {
            PodInfo landed = snapshot.pod(move.pod().uid()).toBuilder().nodeName(move.to()).build();
            change.putPod(landed);
            pods.get(move.from()).removeIf(p -> p.uid().equals(landed.uid()));
            pods.get(move.to()).add(landed);
        }
        Map<String, List<Avoidance>> avoided = new HashMap<>();
        for (Move move : moves) {
            avoided.computeIfAbsent(move.from(), n -> new ArrayList<>()).add(new Avoidance(
                    snapshot.pod(move.pod().uid()).controller().uid(), now.plusSeconds(3600), true));
        }
        for (NodeInfo node : snapshot.nodes()) {
            NodeAdmission admission = new NodeAdmission(node.admission().unschedulable(), node.admission().taints(),
                    avoided.getOrDefault(node.name(), List.of()));
            change.putNode(new NodeInfo(node.name(), node.labels(), node.allocatable(), pods.get(node.name()),
                    node.nominatedPods(), admission));
        }
        return change.build();
    }

}
