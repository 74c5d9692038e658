package dev.makeroom.core.placement;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.HostPort;
import dev.makeroom.core.model.KubeVersion;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.Reservation;
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
 * Small random clusters that exercise every filter the placement engine models: nodes in zones (some
 * without a zone label), cordoned or tainted (NoSchedule, NoExecute, PreferNoSchedule), of disk kinds and
 * core counts; pods of a few apps in two namespaces, some terminating, with host ports, tolerations,
 * node selectors and affinity (In, NotIn, Exists, Gt, matchFields), pod affinity and anti-affinity by
 * hostname and zone, and topology spread (maxSkew, minDomains, node inclusion policies, no selector).
 */
record PlacementCluster(ClusterSnapshot snapshot, PodInfo pending) {

    private static final List<Taint> TAINTS = List.of(new Taint("dedicated", "gpu", "NoSchedule"),
            new Taint("maintenance", null, "NoExecute"), new Taint("spot", "true", "PreferNoSchedule"));
    private static final String ZONE = "topology.kubernetes.io/zone";
    private static final List<KubeVersion> VERSIONS = List.of(new KubeVersion(1, 26), new KubeVersion(1, 32),
            new KubeVersion(1, 33), new KubeVersion(1, 34), new KubeVersion(1, 36));

    static PlacementCluster generate(long seed) {
        Random random = new Random(seed);
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        Random holds = new Random(seed * 31 + 7); // its own stream: the rest of the cluster stays as it was
        int nodes = 1 + random.nextInt(7);
        for (int n = 0; n < nodes; n++) {
            Map<String, String> labels = new HashMap<>();
            labels.put(PodAffinityTerm.HOSTNAME, "node-" + n);
            if (random.nextInt(6) != 0) {
                labels.put(ZONE, "zone-" + random.nextInt(3));
            }
            labels.put("disk", random.nextBoolean() ? "ssd" : "hdd");
            labels.put("cores", String.valueOf(4 << random.nextInt(4)));
            List<Taint> taints = random.nextInt(3) == 0 ? List.of(TAINTS.get(random.nextInt(TAINTS.size()))) : List.of();
            Reservation hold = null;
            if (holds.nextInt(5) == 0) { // room held for a pending pod of the same priority, or a higher one
                PodInfo holder = PodInfo.builder("holder-" + n).name("holder-" + n).namespace("ns-0")
                        .priority(100 + holds.nextInt(2)).build();
                b.pod(holder);
                hold = new Reservation(holder.ref(), Instant.parse("2026-11-25T00:10:00Z"));
            }
            b.node("node-" + n, labels, Resources.of("cpu", 4000, "memory", 8000, "pods", 3 + random.nextInt(6)),
                    new NodeAdmission(random.nextInt(7) == 0, taints, List.of(), hold));
        }
        int pods = random.nextInt(4 * nodes + 1);
        for (int i = 0; i < pods; i++) {
            b.pod(pod(random, i, "node-" + random.nextInt(nodes), nodes));
        }
        PodInfo pending = pod(random, pods, null, nodes);
        if (holds.nextInt(6) == 0) { // more than any node has: unresolvable from 1.34, a preemption candidate before
            pending = pending.toBuilder().requests(pending.requests().plus(Resources.of("cpu", 4000))).build();
        }
        b.version(VERSIONS.get(holds.nextInt(VERSIONS.size())));
        return new PlacementCluster(b.build(), pending);
    }

    private static PodInfo pod(Random random, int index, String node, int nodes) {
        String app = "app-" + random.nextInt(3);
        PodInfo.Builder pod = PodInfo.builder("uid-" + index).name("pod-" + index).namespace("ns-" + random.nextInt(2))
                .nodeName(node).priority(100)
                .requests(Resources.of("cpu", 250L * random.nextInt(6), "memory", 500L * random.nextInt(4)))
                .labels(Map.of("app", app))
                .terminating(node != null && random.nextInt(8) == 0);
        if (random.nextInt(5) == 0) {
            pod.hostPorts(List.of(new HostPort(random.nextBoolean() ? "" : "10.0.0.1", "TCP", 8080 + random.nextInt(2))));
        }
        if (random.nextInt(3) == 0) {
            pod.tolerations(List.of(switch (random.nextInt(4)) {
                case 0 -> new Toleration("dedicated", "Equal", "gpu", "NoSchedule");
                case 1 -> new Toleration("maintenance", "Exists", null, null);
                case 2 -> new Toleration("node.kubernetes.io/unschedulable", "Exists", null, "NoSchedule");
                default -> new Toleration(null, "Exists", null, null);
            }));
        }
        if (random.nextInt(3) == 0) {
            pod.antiAffinity(List.of(term(random)));
        }
        List<PodAffinityTerm> affinity = random.nextInt(6) == 0 ? List.of(term(random)) : List.of();
        List<SpreadConstraint> spread = new ArrayList<>();
        if (random.nextInt(3) == 0) {
            LabelSelector selector = random.nextInt(8) == 0 ? LabelSelector.NOTHING
                    : LabelSelector.matching(Map.of("app", random.nextBoolean() ? app : "app-" + random.nextInt(3)));
            spread.add(new SpreadConstraint(1 + random.nextInt(2), random.nextBoolean() ? ZONE : PodAffinityTerm.HOSTNAME,
                    selector, 1 + random.nextInt(4), random.nextBoolean(), random.nextBoolean()));
        }
        List<LabelSelector> nodeTerms = random.nextInt(3) == 0 ? List.of(nodeTerm(random, nodes)) : List.of();
        List<String> unmodelled = random.nextInt(15) == 0 ? List.of("a persistentVolumeClaim volume") : List.of();
        if (!affinity.isEmpty() || !spread.isEmpty() || !nodeTerms.isEmpty() || !unmodelled.isEmpty()) {
            pod.constraints(new SchedulingConstraints(affinity, spread, nodeTerms, unmodelled));
        }
        return pod.build();
    }

    private static PodAffinityTerm term(Random random) {
        return new PodAffinityTerm(LabelSelector.matching(Map.of("app", "app-" + random.nextInt(3))),
                random.nextInt(4) == 0 ? Set.of("ns-0", "ns-1") : Set.of(), false,
                random.nextBoolean() ? ZONE : PodAffinityTerm.HOSTNAME);
    }

    private static LabelSelector nodeTerm(Random random, int nodes) {
        LabelSelector.Requirement r = switch (random.nextInt(5)) {
            case 0 -> new LabelSelector.Requirement("disk", LabelSelector.Operator.IN, List.of("ssd"));
            case 1 -> new LabelSelector.Requirement(ZONE, LabelSelector.Operator.NOT_IN, List.of("zone-0"));
            case 2 -> new LabelSelector.Requirement(ZONE, LabelSelector.Operator.EXISTS, List.of());
            case 3 -> new LabelSelector.Requirement("cores", LabelSelector.Operator.GT, List.of("8"));
            default -> new LabelSelector.Requirement(LabelSelector.NODE_NAME_FIELD, LabelSelector.Operator.IN,
                    List.of("node-" + random.nextInt(nodes)));
        };
        return new LabelSelector(Map.of(), List.of(r));
    }
}
