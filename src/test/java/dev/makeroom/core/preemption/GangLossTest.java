package dev.makeroom.core.preemption;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What victims cost a gang: nothing while its minimum keeps running, every running member once it does not. */
class GangLossTest {

    private static final Gang EVERY = new Gang("ml", "coscheduling", "train", Gang.EVERY_MEMBER);

    /** {@code running} members of {@code gang} on two nodes, and one terminating member. */
    private static ClusterSnapshot cluster(Gang gang, int running) {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder()
                .node("a", Map.of(), Resources.of("cpu", 64000, "pods", 110))
                .node("b", Map.of(), Resources.of("cpu", 64000, "pods", 110));
        for (int i = 0; i < running; i++) {
            b.pod(PodInfo.builder("w" + i).namespace("ml").nodeName(i % 2 == 0 ? "a" : "b").gang(gang).build());
        }
        b.pod(PodInfo.builder("leaving").namespace("ml").nodeName("a").gang(gang).terminating(true).build());
        b.pod(PodInfo.builder("alone").namespace("ml").nodeName("a").build());
        return b.build();
    }

    private static List<PodInfo> pods(ClusterSnapshot snapshot, String... uids) {
        List<PodInfo> out = new ArrayList<>();
        for (String uid : uids) {
            out.add(snapshot.pod(uid));
        }
        return out;
    }

    @Test
    void one_victim_of_a_gang_that_needs_every_member_stops_the_others() {
        ClusterSnapshot snapshot = cluster(EVERY, 4);
        List<GangLoss> losses = GangLoss.of(snapshot, pods(snapshot, "w1", "alone"));
        assertThat(losses).containsExactly(new GangLoss(EVERY, 4, 1));
        assertThat(GangLoss.othersStopped(losses)).isEqualTo(3); // the terminating member is not counted
        assertThat(losses.get(0).describe())
                .isEqualTo("gang ml/train (coscheduling): 1 of 4 running evicted, fewer than all left, the other 3 stop too");
    }

    @Test
    void victims_within_a_gangs_slack_break_nothing_and_one_more_breaks_it() {
        Gang atLeastTwo = new Gang("ml", "coscheduling", "train", 2);
        ClusterSnapshot snapshot = cluster(atLeastTwo, 4);
        assertThat(GangLoss.of(snapshot, pods(snapshot, "w0", "w1"))).isEmpty();
        List<GangLoss> losses = GangLoss.of(snapshot, pods(snapshot, "w0", "w1", "w2"));
        assertThat(losses).containsExactly(new GangLoss(atLeastTwo, 4, 3));
        assertThat(GangLoss.othersStopped(losses)).isEqualTo(1);
    }

    @Test
    void the_smallest_minimum_a_running_member_states_is_the_gangs() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder().node("a", Map.of(), Resources.of("cpu", 64000, "pods", 110));
        for (int i = 0; i < 4; i++) { // one member states 3, the others nothing
            b.pod(PodInfo.builder("w" + i).namespace("ml").nodeName("a")
                    .gang(i == 0 ? new Gang("ml", "coscheduling", "train", 3) : EVERY).build());
        }
        ClusterSnapshot snapshot = b.build();
        assertThat(GangLoss.of(snapshot, pods(snapshot, "w2"))).isEmpty();
        assertThat(GangLoss.of(snapshot, pods(snapshot, "w2", "w3"))).extracting(loss -> loss.gang().minMember()).containsExactly(3);
    }

    @Test
    void pods_in_no_gang_break_none() {
        ClusterSnapshot snapshot = cluster(EVERY, 2);
        assertThat(GangLoss.of(snapshot, pods(snapshot, "alone"))).isEmpty();
    }
}
