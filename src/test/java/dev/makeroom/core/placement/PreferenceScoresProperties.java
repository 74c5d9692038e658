package dev.makeroom.core.placement;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PreferredNodeTerm;
import dev.makeroom.core.model.PreferredPodTerm;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The preference scores against the scheduler's sums written out pod by pod: on random clusters
 * (nodes in zones, some without the zone label; pods of a few apps in two namespaces with preferred
 * node terms, preferred pod affinity and anti-affinity by node or zone, a term now and then written
 * twice, some with required affinity),
 * every pod's score on every node equals, for each other pod, the weights of the pod's terms that select
 * it plus the weights of its terms that select the pod (1 for a required affinity term) where the node
 * shares its domain, plus the pod's preferred node terms the node matches.
 */
class PreferenceScoresProperties {

    private static final String ZONE = "topology.kubernetes.io/zone";

    @Property(tries = 300)
    void every_score_is_the_schedulers_sum_pod_by_pod(@ForAll long seed) {
        Random random = new Random(seed);
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        int nodes = 2 + random.nextInt(5);
        for (int n = 0; n < nodes; n++) {
            String name = "node-" + n;
            b.node(name, n % 4 == 3 ? Map.of(PodAffinityTerm.HOSTNAME, name, "disk", "ssd")
                            : Map.of(PodAffinityTerm.HOSTNAME, name, ZONE, "zone-" + n % 2),
                    Resources.of("cpu", 4000, "pods", 110));
        }
        List<PodInfo> pods = new ArrayList<>();
        for (int i = 0; i < 2 + random.nextInt(12); i++) {
            PodInfo pod = pod(random, i, "node-" + random.nextInt(nodes));
            pods.add(pod);
            b.pod(pod);
        }
        ClusterSnapshot snapshot = b.build();
        PreferenceScores scores = PreferenceScores.of(new SnapshotState(snapshot, Instant.EPOCH));
        for (PodInfo pod : pods) {
            for (NodeInfo node : snapshot.nodes()) {
                assertThat(scores.of(pod, node)).as("seed %d: %s on %s", seed, pod.name(), node.name())
                        .isEqualTo(bySum(snapshot, pod, node));
            }
        }
    }

    private static PodInfo pod(Random random, int index, String node) {
        int app = random.nextInt(3);
        List<PreferredPodTerm> preferred = new ArrayList<>();
        for (int t = 0; t < random.nextInt(3); t++) {
            PodAffinityTerm term = new PodAffinityTerm(LabelSelector.matching(Map.of("app", "app-" + random.nextInt(3))),
                    random.nextInt(4) == 0 ? Set.of("ns-0", "ns-1") : Set.of(), false,
                    random.nextBoolean() ? ZONE : PodAffinityTerm.HOSTNAME);
            preferred.add(new PreferredPodTerm(1 + random.nextInt(100), term, random.nextBoolean()));
        }
        if (!preferred.isEmpty() && random.nextInt(6) == 0) {
            preferred.add(preferred.get(0)); // a term written twice counts twice, as the scheduler adds it twice
        }
        List<PodAffinityTerm> required = random.nextInt(5) == 0 ? List.of(new PodAffinityTerm(
                LabelSelector.matching(Map.of("app", "app-" + random.nextInt(3))), Set.of(), false, ZONE)) : List.of();
        List<PreferredNodeTerm> nodeTerms = random.nextInt(3) == 0
                ? List.of(new PreferredNodeTerm(10, LabelSelector.matching(Map.of("disk", "ssd")))) : List.of();
        return PodInfo.builder("uid-" + index).name("pod-" + index).namespace("ns-" + random.nextInt(2)).nodeName(node)
                .labels(Map.of("app", "app-" + app)).requests(Resources.of("cpu", 100))
                .constraints(new SchedulingConstraints(required, List.of(), List.of(), List.of(), true, nodeTerms, preferred))
                .build();
    }

    /** The scheduler's InterPodAffinity and NodeAffinity scores before normalising, summed pod by pod. */
    private static long bySum(ClusterSnapshot snapshot, PodInfo pod, NodeInfo node) {
        long score = 0;
        for (PreferredNodeTerm t : pod.constraints().preferred()) {
            score += t.selector().matches(node.labels()) ? t.weight() : 0;
        }
        for (PodInfo other : snapshot.pods()) {
            if (other.uid().equals(pod.uid())) {
                continue;
            }
            NodeInfo there = snapshot.node(other.nodeName());
            for (PreferredPodTerm t : pod.constraints().preferredPods()) {
                if (t.term().selects(pod, other) && sameDomain(node, there, t.term().topologyKey())) {
                    score += t.anti() ? -t.weight() : t.weight();
                }
            }
            for (PreferredPodTerm t : other.constraints().preferredPods()) {
                if (t.term().selects(other, pod) && sameDomain(node, there, t.term().topologyKey())) {
                    score += t.anti() ? -t.weight() : t.weight();
                }
            }
            for (PodAffinityTerm t : other.constraints().affinity()) {
                if (t.selects(other, pod) && sameDomain(node, there, t.topologyKey())) {
                    score += 1;
                }
            }
        }
        return score;
    }

    private static boolean sameDomain(NodeInfo a, NodeInfo b, String key) {
        String here = Topology.domainOf(a, key);
        return here != null && Objects.equals(here, Topology.domainOf(b, key));
    }
}
