package dev.makeroom.core.rounds;

import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeAdmission;
import dev.makeroom.core.model.OwnerRef;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Reservation;
import dev.makeroom.core.model.Resources;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Landings against a scheduler that places pods by its own scoring, not makeroom's plan: it runs its
 * own resource filter, asks makeroom's filter, and of what passes takes the least allocated node (the
 * spreading that undid consolidation). Pods are moved to nodes where they were proven to fit, their
 * landings held there; then their replacements and other pods arrive in random order. Every
 * replacement lands on a node planned for its controller (as many on each as were planned there), and
 * no other pod of no higher priority takes the planned room meanwhile.
 */
class LandingsAgainstAFakeSchedulerProperties {

    private static final Instant MOVED_AT = Instant.parse("2026-11-27T12:00:00Z");
    private static final Instant NOW = MOVED_AT.plusSeconds(10);
    private static final long NODE_CPU = 4000;
    private static final FilterPolicy MAKEROOM = new FilterPolicy();

    private record Node(String name, List<Reservation> landings) {
    }

    @Property(tries = 300)
    void replacements_land_where_their_moves_were_proven(@ForAll long seed) {
        Random random = new Random(seed);
        List<OwnerRef> controllers = List.of(new OwnerRef("ReplicaSet", "web", "rs-web"),
                new OwnerRef("ReplicaSet", "api", "rs-api"), new OwnerRef("StatefulSet", "db", "sts-db"));
        long[] cpuOf = {250L * (1 + random.nextInt(4)), 250L * (1 + random.nextInt(4)), 250L * (1 + random.nextInt(4))};
        List<Node> nodes = new ArrayList<>();
        for (int n = 0, count = 3 + random.nextInt(6); n < count; n++) {
            nodes.add(new Node("node-" + n, new ArrayList<>()));
        }
        List<PodInfo> bound = new ArrayList<>();
        int serial = 0;
        for (Node node : nodes) {
            long used = 0;
            for (int k = random.nextInt(5); k > 0; k--) {
                int c = random.nextInt(controllers.size());
                OwnerRef owner = controllers.get(c);
                long cpu = cpuOf[c]; // one template per controller: its pods ask the same
                if (used + cpu <= NODE_CPU) {
                    used += cpu;
                    bound.add(pod(owner.name() + "-" + serial++, owner, 100, cpu, MOVED_AT.minusSeconds(600), node.name()));
                }
            }
        }
        // the moves: each pod to another node where it fits, given the moves before it
        Map<String, Integer> planned = new HashMap<>(); // controller uid + node -> landings planned there
        Map<String, Long> promised = new HashMap<>(); // node -> cpu of the replacements planned there
        List<PodInfo> replacements = new ArrayList<>();
        for (int m = 1 + random.nextInt(4); m > 0 && !bound.isEmpty(); m--) {
            PodInfo moved = bound.get(random.nextInt(bound.size()));
            List<Node> fits = nodes.stream().filter(n -> !n.name().equals(moved.nodeName())
                    && free(bound, n.name()) - promised.getOrDefault(n.name(), 0L) >= moved.requests().get("cpu")).toList();
            if (fits.isEmpty()) {
                continue;
            }
            Node to = fits.get(random.nextInt(fits.size()));
            bound.remove(moved);
            to.landings().add(Reservation.landing(moved, MOVED_AT, MOVED_AT.plusSeconds(120)));
            planned.merge(moved.controller().uid() + "@" + to.name(), 1, Integer::sum);
            promised.merge(to.name(), moved.requests().get("cpu"), Long::sum);
            String name = moved.controller().kind().equals("StatefulSet") ? moved.name() : moved.name() + "-new";
            replacements.add(pod(name, moved.controller(), moved.priority(), moved.requests().get("cpu"), NOW, null)
                    .toBuilder().uid("uid-" + moved.name() + "-new").build());
        }
        List<PodInfo> arriving = new ArrayList<>(replacements);
        for (int o = random.nextInt(4); o > 0; o--) {
            arriving.add(pod("other-" + o, new OwnerRef("ReplicaSet", "batch", "rs-batch"), random.nextInt(101),
                    250L * (1 + random.nextInt(2)), NOW, null));
        }
        java.util.Collections.shuffle(arriving, random);

        Map<String, Integer> landed = new HashMap<>();
        for (PodInfo pod : arriving) {
            ClusterSnapshot snapshot = snapshot(nodes, bound);
            List<String> feasible = nodes.stream().map(Node::name)
                    .filter(n -> free(bound, n) >= pod.requests().get("cpu")).toList();
            List<String> passed = MAKEROOM.filter(snapshot, pod, feasible, null, NOW).passed();
            String chosen = passed.stream().max(Comparator.comparingLong((String n) -> free(bound, n))
                    .thenComparing(Comparator.reverseOrder())).orElse(null);
            if (chosen == null) {
                continue; // stays pending: fine for others, checked below for replacements
            }
            if (!replacements.contains(pod)) {
                assertThat(Reservation.holdingOn(snapshot.node(chosen), snapshot, NOW))
                        .as(pod.name() + " took room held for a replacement on " + chosen)
                        .noneMatch(r -> r.keepsOff(pod, snapshot, NOW));
            } else {
                landed.merge(pod.controller().uid() + "@" + chosen, 1, Integer::sum);
            }
            bound.add(pod.toBuilder().nodeName(chosen).build());
        }
        assertThat(landed).as("replacements by controller and node, against the plan").isEqualTo(planned);
    }

    private static PodInfo pod(String name, OwnerRef owner, int priority, long cpu, Instant created, String node) {
        return PodInfo.builder("uid-" + name).name(name).namespace("shop").controller(owner).priority(priority)
                .creationTime(created).requests(Resources.of("cpu", cpu)).nodeName(node).build();
    }

    private static long free(List<PodInfo> bound, String node) {
        return NODE_CPU - bound.stream().filter(p -> node.equals(p.nodeName())).mapToLong(p -> p.requests().get("cpu")).sum();
    }

    private static ClusterSnapshot snapshot(List<Node> nodes, List<PodInfo> bound) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        for (Node node : nodes) {
            b.node(node.name(), Map.of(), Resources.of("cpu", NODE_CPU, "pods", 110),
                    new NodeAdmission(false, List.of(), List.of(), node.landings()));
        }
        bound.forEach(b::pod);
        return b.build();
    }
}
