package dev.makeroom.cluster;

import com.github.benmanes.caffeine.cache.Ticker;
import dev.makeroom.core.model.ClusterSnapshot;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The applier's state on its own: events in, snapshots out, sharing what did not change. */
class LiveClusterStateTest {

    private final LiveClusterState state = new LiveClusterState(
            new EvictionMemory(Duration.ofMinutes(10), Ticker.systemTicker()));

    private void upsert(ClusterEvent.Kind kind, io.fabric8.kubernetes.api.model.HasMetadata o) {
        state.apply(new ClusterEvent(kind, false, o));
    }

    @Test
    void a_deletion_found_by_a_relist_carries_only_the_reduced_state_and_still_removes_the_pod() {
        upsert(ClusterEvent.Kind.NODE, KubernetesClusterViewTest.node("n1", "4"));
        Pod pod = KubernetesClusterViewTest.pod("p1", "n1", "1");
        upsert(ClusterEvent.Kind.POD, pod);
        assertThat(state.publish().node("n1").pods()).hasSize(1);

        // what the informer's reduced item store restores: name, namespace, resourceVersion, uid
        Pod reduced = new PodBuilder().withNewMetadata().withName("p1").withNamespace("default")
                .withUid(pod.getMetadata().getUid()).endMetadata().build();
        state.apply(new ClusterEvent(ClusterEvent.Kind.POD, true, reduced));

        ClusterSnapshot after = state.publish();
        assertThat(after.pod(pod.getMetadata().getUid())).isNull();
        assertThat(after.node("n1").pods()).isEmpty();
    }

    @Test
    void a_lean_pod_without_a_resolved_priority_takes_its_class_value_on_the_applier() {
        upsert(ClusterEvent.Kind.PRIORITY_CLASS, new io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder()
                .withNewMetadata().withName("batch").endMetadata().withValue(250).build());
        Pod pod = new PodBuilder(KubernetesClusterViewTest.pod("p1", "n1", "1")).editSpec().withPriority(null)
                .withPriorityClassName("batch").endSpec().build();
        LeanPod lean = LeanPod.of(pod);

        state.apply(new ClusterEvent(ClusterEvent.Kind.POD, false, lean));

        assertThat(lean.info().priority()).as("mapped on the informer's thread, without the classes").isZero();
        assertThat(state.publish().pod("uid-p1").priority()).isEqualTo(250);
    }

    @Test
    void a_batch_rebuilds_only_the_nodes_it_touched() {
        upsert(ClusterEvent.Kind.NODE, KubernetesClusterViewTest.node("n1", "4"));
        upsert(ClusterEvent.Kind.NODE, KubernetesClusterViewTest.node("n2", "4"));
        ClusterSnapshot first = state.publish();

        upsert(ClusterEvent.Kind.POD, KubernetesClusterViewTest.pod("p1", "n1", "1"));
        ClusterSnapshot second = state.publish();

        assertThat(second).isNotSameAs(first);
        assertThat(second.node("n2")).isSameAs(first.node("n2"));
        assertThat(second.node("n1")).isNotSameAs(first.node("n1"));
        assertThat(first.node("n1").pods()).isEmpty();
        assertThat(state.publish()).isSameAs(second);
    }

    @Test
    void after_a_sync_larger_than_a_small_change_each_later_change_is_published_once_and_only_where_it_was() {
        for (int n = 0; n < 100; n++) { // a first sync: more changes than the applier keeps its change sets for
            upsert(ClusterEvent.Kind.NODE, KubernetesClusterViewTest.node("n" + n, "4"));
            upsert(ClusterEvent.Kind.POD, KubernetesClusterViewTest.pod("p" + n, "n" + n, "1"));
        }
        ClusterSnapshot synced = state.publish();
        assertThat(synced.nodes()).hasSize(100);
        assertThat(synced.pods()).hasSize(100);
        assertThat(state.publish()).as("nothing pending after the sync").isSameAs(synced);

        upsert(ClusterEvent.Kind.POD, KubernetesClusterViewTest.pod("late", "n5", "1"));
        state.apply(new ClusterEvent(ClusterEvent.Kind.POD, true, KubernetesClusterViewTest.pod("p7", "n7", "1")));
        ClusterSnapshot changed = state.publish();

        assertThat(changed.node("n5").pods()).hasSize(2);
        assertThat(changed.node("n7").pods()).isEmpty();
        assertThat(changed.pods()).hasSize(100);
        for (int n = 0; n < 100; n++) {
            if (n != 5 && n != 7) {
                assertThat(changed.node("n" + n)).as("n" + n + " untouched").isSameAs(synced.node("n" + n));
            }
        }
        assertThat(state.publish()).as("nothing pending after the change").isSameAs(changed);
    }

    @Test
    void a_pod_moving_from_nominated_to_bound_leaves_the_nominated_list() {
        upsert(ClusterEvent.Kind.NODE, KubernetesClusterViewTest.node("n1", "4"));
        Pod waiting = KubernetesClusterViewTest.pod("w", null, "2");
        waiting.getStatus().setNominatedNodeName("n1");
        upsert(ClusterEvent.Kind.POD, waiting);
        assertThat(state.publish().node("n1").nominatedPods()).hasSize(1);

        Pod bound = new PodBuilder(waiting).editSpec().withNodeName("n1").endSpec().build();
        upsert(ClusterEvent.Kind.POD, bound);
        ClusterSnapshot snapshot = state.publish();
        assertThat(snapshot.node("n1").nominatedPods()).isEmpty();
        assertThat(snapshot.node("n1").pods()).hasSize(1);
    }

    @Test
    void equal_label_sets_are_shared_between_pods() {
        upsert(ClusterEvent.Kind.POD, KubernetesClusterViewTest.pod("a", null, "1"));
        upsert(ClusterEvent.Kind.POD, KubernetesClusterViewTest.pod("b", null, "1"));
        ClusterSnapshot snapshot = state.publish();
        assertThat(snapshot.pod("uid-a").labels()).isSameAs(snapshot.pod("uid-b").labels());
    }
}
