package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Queue;

import static org.assertj.core.api.Assertions.assertThat;

/** What the informer's notifications become on the applier's queue, with the reduced store's skeletons. */
class EnqueueingHandlerTest {

    private final Queue<ClusterEvent> queue = new ArrayDeque<>();
    private final EnqueueingHandler<Pod> handler = new EnqueueingHandler<>(ClusterEvent.Kind.POD, queue);

    private static Pod full(String uid, String version) {
        return new PodBuilder(KubernetesClusterViewTest.pod("web-1", "n1", "1")).editMetadata().withUid(uid)
                .withResourceVersion(version).endMetadata().build();
    }

    /** What the reduced store gives back: the key, the UID and the resourceVersion, nothing else. */
    private static Pod skeleton(String uid, String version) {
        return new PodBuilder().withNewMetadata().withNamespace("default").withName("web-1").withUid(uid)
                .withResourceVersion(version).endMetadata().build();
    }

    @Test
    void a_resync_hands_back_a_skeleton_as_both_objects_and_changes_nothing() {
        handler.onUpdate(skeleton("u1", "7"), skeleton("u1", "7"));

        assertThat(queue).isEmpty();
        assertThat(handler.count(EnqueueingHandler.Outcome.UNCHANGED)).isEqualTo(1);
    }

    @Test
    void a_relist_that_finds_a_newer_version_applies_the_full_object() {
        Pod newer = full("u1", "9");
        handler.onUpdate(skeleton("u1", "7"), newer);

        assertThat(queue).containsExactly(new ClusterEvent(ClusterEvent.Kind.POD, false, newer));
        assertThat(handler.count(EnqueueingHandler.Outcome.UPDATED)).isEqualTo(1);
    }

    @Test
    void a_relist_that_finds_another_pod_under_the_name_removes_the_old_one_first() {
        Pod old = skeleton("u1", "7");
        Pod recreated = full("u2", "12");
        handler.onUpdate(old, recreated);

        assertThat(queue).containsExactly(new ClusterEvent(ClusterEvent.Kind.POD, true, old),
                new ClusterEvent(ClusterEvent.Kind.POD, false, recreated));
        assertThat(handler.count(EnqueueingHandler.Outcome.REPLACED)).isEqualTo(1);
    }

    @Test
    void a_skeleton_deleted_with_its_final_state_unknown_still_removes_the_pod_from_the_state() {
        LiveClusterState state = new LiveClusterState(new EvictionMemory(java.time.Duration.ofMinutes(1),
                com.github.benmanes.caffeine.cache.Ticker.systemTicker()));
        state.apply(new ClusterEvent(ClusterEvent.Kind.NODE, false, KubernetesClusterViewTest.node("n1", "4")));
        state.apply(new ClusterEvent(ClusterEvent.Kind.POD, false, full("u1", "7")));
        assertThat(state.publish().node("n1").pods()).hasSize(1);

        handler.onDelete(skeleton("u1", "7"), true);
        queue.forEach(state::apply);

        assertThat(state.publish().node("n1").pods()).isEmpty();
        assertThat(state.publish().pod("u1")).isNull();
    }
}
