package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Gang;
import dev.makeroom.mapping.PodGroupKind;
import dev.makeroom.support.Await;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live view follows the minimums gangs' group objects state, against fabric8's mock API server in
 * CRUD mode, and a kind the API server does not serve does not hold up readiness.
 */
@EnableKubernetesMockClient(crud = true)
class PodGroupMinimumsOverApiTest {

    private static final Duration FOLLOW = Duration.ofSeconds(5);

    static KubernetesClient client;
    static KubernetesMockServer server;

    private ViewUnderTest live;

    @AfterEach
    void stop() {
        if (live != null) {
            live.close();
        }
        for (PodGroupKind kind : PodGroupKind.values()) {
            client.genericKubernetesResources(context(kind)).inAnyNamespace().delete();
        }
    }

    @Test
    void a_podgroups_minimum_is_followed_through_its_changes_and_deletion() {
        client.genericKubernetesResources(context(PodGroupKind.COSCHEDULING)).inNamespace("train")
                .resource(coscheduling("train", "bert", 2)).create();
        live = ViewUnderTest.watching(client.getConfiguration());
        Await.until("the view has synced", Duration.ofSeconds(10), live.view::ready);
        String key = new Gang("train", "coscheduling", "bert", Gang.EVERY_MEMBER).key();
        assertThat(live.view.snapshot().gangMinimums()).containsEntry(key, 2); // ready means listed

        client.genericKubernetesResources(context(PodGroupKind.COSCHEDULING)).inNamespace("train")
                .withName("bert").edit(g -> coscheduling("train", "bert", 3));
        awaitSnapshot("the new minimum is seen", s -> Integer.valueOf(3).equals(s.gangMinimums().get(key)));

        client.genericKubernetesResources(context(PodGroupKind.WORKLOAD)).inNamespace("train")
                .resource(workload("gpt", Map.of("gang", Map.of("minCount", 4)))).create();
        String workloadKey = new Gang("train", "workload", "gpt", Gang.EVERY_MEMBER).key();
        awaitSnapshot("the Workload API's group is seen", s -> Integer.valueOf(4).equals(s.gangMinimums().get(workloadKey)));

        client.genericKubernetesResources(context(PodGroupKind.COSCHEDULING)).inNamespace("train")
                .withName("bert").delete();
        awaitSnapshot("the deleted group's minimum is gone", s -> !s.gangMinimums().containsKey(key));
        assertThat(live.view.snapshot().gangMinimums()).containsOnlyKeys(workloadKey);
    }

    @Test
    void a_kind_the_api_server_does_not_serve_is_given_up_and_the_view_is_ready_without_it() {
        // Volcano is not installed: its list answers 404, as a real API server answers for an unknown group
        server.expect().get().withPath("/apis/scheduling.volcano.sh/v1beta1/podgroups?limit=1")
                .andReturn(404, Map.of("kind", "Status", "code", 404, "reason", "NotFound")).always();
        client.genericKubernetesResources(context(PodGroupKind.COSCHEDULING)).inNamespace("train")
                .resource(coscheduling("train", "bert", 2)).create();
        live = ViewUnderTest.watching(client.getConfiguration());
        Await.until("the view has synced", Duration.ofSeconds(10), live.view::ready);
        assertThat(live.view.snapshot().gangMinimums())
                .containsEntry(new Gang("train", "coscheduling", "bert", Gang.EVERY_MEMBER).key(), 2);
        assertThat(live.view.podGroupKindsWatched()).containsExactly(PodGroupKind.COSCHEDULING, PodGroupKind.WORKLOAD);
    }

    private void awaitSnapshot(String what, Predicate<ClusterSnapshot> condition) {
        Await.until(what, FOLLOW, () -> condition.test(live.view.snapshot()));
    }

    static ResourceDefinitionContext context(PodGroupKind kind) {
        return new ResourceDefinitionContext.Builder().withGroup(kind.group()).withVersion(kind.version())
                .withPlural(kind.plural()).withKind("PodGroup").withNamespaced(true).build();
    }

    /** A coscheduling PodGroup stating {@code minMember}. */
    static GenericKubernetesResource coscheduling(String namespace, String name, int minMember) {
        return new GenericKubernetesResourceBuilder().withApiVersion("scheduling.x-k8s.io/v1alpha1").withKind("PodGroup")
                .withNewMetadata().withName(name).withNamespace(namespace).endMetadata()
                .addToAdditionalProperties("spec", Map.of("minMember", minMember)).build();
    }

    static GenericKubernetesResource workload(String name, Map<String, Object> policy) {
        return new GenericKubernetesResourceBuilder().withApiVersion("scheduling.k8s.io/v1alpha2").withKind("PodGroup")
                .withNewMetadata().withName(name).withNamespace("train").endMetadata()
                .addToAdditionalProperties("spec", Map.of("schedulingPolicy", policy)).build();
    }
}
