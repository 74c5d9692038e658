package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The informer cache keeps key, resourceVersion and UID, and hands back skeletons of exactly those. */
class MetadataItemStoreTest {

    @Test
    void a_pod_comes_back_as_a_skeleton_with_its_key_version_and_uid() {
        MetadataItemStore<Pod> store = new MetadataItemStore<>(Pod.class);
        Pod pod = KubernetesClusterViewTest.pod("web-1", "n1", "1");
        pod.getMetadata().setResourceVersion("42");
        String key = store.getKey(pod);

        assertThat(store.put(key, pod)).isNull();
        Pod skeleton = store.get(key);

        assertThat(key).isEqualTo("default/web-1");
        assertThat(skeleton.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(skeleton.getMetadata().getName()).isEqualTo("web-1");
        assertThat(skeleton.getMetadata().getResourceVersion()).isEqualTo("42");
        assertThat(skeleton.getMetadata().getUid()).isEqualTo("uid-web-1");
        assertThat(skeleton.getSpec()).as("nothing else is kept").isNull();
        assertThat(store.isFullState()).isFalse();
    }

    @Test
    void replacing_and_removing_return_the_previous_skeleton() {
        MetadataItemStore<Node> store = new MetadataItemStore<>(Node.class);
        Node node = KubernetesClusterViewTest.node("n1", "4");
        node.getMetadata().setResourceVersion("1");
        store.put("n1", node);
        node.getMetadata().setResourceVersion("2");

        assertThat(store.put("n1", node).getMetadata().getResourceVersion()).isEqualTo("1");
        assertThat(store.values()).singleElement().satisfies(n -> assertThat(n.getMetadata().getName()).isEqualTo("n1"));
        assertThat(store.remove("n1").getMetadata().getResourceVersion()).isEqualTo("2");
        assertThat(store.size()).isZero();
    }
}
