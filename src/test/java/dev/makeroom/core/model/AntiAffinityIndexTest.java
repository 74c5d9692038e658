package dev.makeroom.core.model;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The pods with anti-affinity (and with spread or affinity), carried from snapshot to snapshot, equal a scan of the new one. */
class AntiAffinityIndexTest {

    private static final PodAffinityTerm AWAY = new PodAffinityTerm(LabelSelector.matching(Map.of("app", "web")),
            Set.of(), false, PodAffinityTerm.HOSTNAME);

    private static PodInfo pod(String uid, String node, boolean antiAffine) {
        return PodInfo.builder(uid).nodeName(node).antiAffinity(antiAffine ? List.of(AWAY) : List.of()).build();
    }

    private static Set<String> uids(List<PodInfo> pods) {
        return Set.copyOf(pods.stream().map(PodInfo::uid).toList());
    }

    @Test
    void added_removed_and_changed_pods_are_carried_forward() {
        ClusterSnapshot first = ClusterSnapshot.builder().node("n", Map.of(), Resources.NONE)
                .pod(pod("keep", "n", true)).pod(pod("drop", "n", true)).pod(pod("lose", "n", true))
                .pod(pod("plain", "n", false)).build();
        assertThat(uids(first.podsWithAntiAffinity())).containsExactlyInAnyOrder("keep", "drop", "lose");

        ClusterSnapshot second = first.change().removePod("drop").putPod(pod("lose", "n", false))
                .putPod(pod("gain", "n", true)).putPod(pod("pending", null, true)).build();

        Set<String> scanned = Set.copyOf(second.pods().stream()
                .filter(p -> p.isAssigned() && !p.antiAffinity().isEmpty()).map(PodInfo::uid).toList());
        assertThat(uids(second.podsWithAntiAffinity())).isEqualTo(scanned).containsExactlyInAnyOrder("keep", "gain");
        assertThat(uids(second.change().putPod(pod("more", "n", true)).build().podsWithAntiAffinity()))
                .containsExactlyInAnyOrder("keep", "gain", "more");
    }

    private static PodInfo spread(String uid, String node, boolean spreads) {
        SchedulingConstraints c = new SchedulingConstraints(List.of(), List.of(new SpreadConstraint(1,
                "topology.kubernetes.io/zone", LabelSelector.matching(Map.of("app", "web")), 1, true)), List.of(), List.of());
        return PodInfo.builder(uid).nodeName(node).constraints(spreads ? c : null).build();
    }

    @Test
    void the_pods_with_spread_or_affinity_are_carried_forward_too() {
        ClusterSnapshot first = ClusterSnapshot.builder().node("n", Map.of(), Resources.NONE)
                .pod(spread("keep", "n", true)).pod(spread("drop", "n", true)).pod(spread("lose", "n", true))
                .pod(spread("plain", "n", false)).build();
        assertThat(uids(first.podsWithSpreadOrAffinity())).containsExactlyInAnyOrder("keep", "drop", "lose");

        ClusterSnapshot second = first.change().removePod("drop").putPod(spread("lose", "n", false))
                .putPod(spread("gain", "n", true)).putPod(spread("pending", null, true)).build();

        assertThat(uids(second.podsWithSpreadOrAffinity())).containsExactlyInAnyOrder("keep", "gain");
    }

    @Test
    void the_pods_in_gangs_and_their_running_members_are_carried_forward_too() {
        Gang train = new Gang("default", "coscheduling", "train", Gang.EVERY_MEMBER);
        ClusterSnapshot first = ClusterSnapshot.builder().node("n", Map.of(), Resources.NONE)
                .pod(PodInfo.builder("keep").nodeName("n").gang(train).build())
                .pod(PodInfo.builder("drop").nodeName("n").gang(train).build())
                .pod(PodInfo.builder("plain").nodeName("n").build()).build();
        assertThat(uids(first.podsInGangs())).containsExactlyInAnyOrder("keep", "drop");

        ClusterSnapshot second = first.change().removePod("drop")
                .putPod(PodInfo.builder("waiting").gang(train).build())
                .putPod(PodInfo.builder("leaving").nodeName("n").gang(train).terminating(true).build()).build();

        assertThat(uids(second.podsInGangs())).containsExactlyInAnyOrder("keep", "waiting", "leaving");
        assertThat(uids(second.runningMembersOf(train.key()))).containsExactly("keep"); // bound and not terminating
    }
}
