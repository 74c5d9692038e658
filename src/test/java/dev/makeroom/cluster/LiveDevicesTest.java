package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.placement.PlacementSurvey;
import dev.makeroom.core.placement.SnapshotState;
import dev.makeroom.support.Await;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live view watches DRA's objects where the API server serves {@code resource.k8s.io/v1}, and
 * decides with them as a dump does: the DRA cluster of the why tests, created in the mock API, then a
 * claim deallocated (the resourceclaim controller's step after its pod went) and a slice removed.
 * Where the server serves no v1, devices are not modelled and say so.
 */
class LiveDevicesTest {

    private static final Duration FOLLOW = Duration.ofSeconds(10);

    private KubernetesMockServer server;
    private KubernetesClient admin;
    private ViewUnderTest live;

    private void serve(boolean devices) throws Exception {
        FaultyApi api = new FaultyApi();
        api.servesDevices = devices;
        server = FaultyApi.serve(api);
        admin = FaultyApi.admin(server);
        for (HasMetadata object : new SnapshotFileLoader().load(Path.of("src/test/resources/clusters/dra-cluster.yaml"))) {
            admin.resource(object).create();
        }
        live = ViewUnderTest.watching(server);
        Await.until("the view has synced", FOLLOW, live.view::ready);
    }

    @AfterEach
    void stop() {
        if (live != null) {
            live.close();
        }
        admin.close();
        MockServers.destroy(server);
    }

    private PlacementSurvey where(String pod) {
        ClusterSnapshot snapshot = live.view.snapshot();
        PodInfo pending = snapshot.podNamed("team/" + pod);
        return PlacementSurvey.of(new SnapshotState(snapshot, Instant.now()), pending, Optional.empty());
    }

    private void follow(String what, Predicate<ClusterSnapshot> condition) {
        Await.until(what, FOLLOW, () -> condition.test(live.view.snapshot()));
    }

    @Test
    void devices_are_watched_and_decide_where_claims_fit_as_they_change() throws Exception {
        serve(true);
        assertThat(live.view.devicesWatched()).isTrue();
        follow("the pools and claims", s -> s.devices().pools().size() == 3 && s.devices().claims().size() == 9);
        assertThat(where("trainer").unresolvable()).containsOnlyKeys("node-1", "node-2", "node-3")
                .containsValue("cannot allocate all claims");
        assertThat(where("any-model").fits()).containsExactly("node-3");

        List<dev.makeroom.core.devices.DevicePool> poolsBefore = live.view.snapshot().devices().pools();
        // holder-5's pod went, and the resourceclaim controller cleared its claim: node-2 has two H100s free
        admin.resources(ResourceClaim.class).inNamespace("team").withName("holder-5-gpus").editStatus(c -> {
            c.getStatus().setAllocation(null);
            c.getStatus().setReservedFor(List.of());
            return c;
        });
        follow("the claim deallocated", s -> !s.devices().claim("team", "holder-5-gpus").allocated());
        assertThat(where("trainer").fits()).containsExactly("node-2");
        // a claim's change maps no slice again: the pools are the same objects (their selector answers are kept)
        assertThat(live.view.snapshot().devices().pools()).allSatisfy(pool ->
                assertThat(poolsBefore).anySatisfy(before -> assertThat(before).isSameAs(pool)));

        admin.resources(io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice.class)
                .withName("node-2-gpu.example.com").delete();
        follow("the slice gone", s -> s.devices().pools().size() == 2);
        assertThat(where("trainer").fits()).isEmpty();
    }

    @Test
    void where_the_server_serves_no_v1_devices_are_not_modelled_and_say_so() throws Exception {
        serve(false);
        assertThat(live.view.devicesWatched()).isFalse();
        assertThat(live.view.snapshot().devices().notModelled()).isEqualTo("the API server serves no resource.k8s.io/v1");
        assertThat(where("trainer").unknown()).containsOnlyKeys("node-1", "node-2", "node-3")
                .containsValue("unknown: resource claims (the API server serves no resource.k8s.io/v1)");
    }
}
