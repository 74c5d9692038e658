package dev.makeroom.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The demo cluster created in a mock API, and the README's preempt body naming its pods by the UIDs the API gave them. */
final class DemoClusterOnMockApi {

    private DemoClusterOnMockApi() {
    }

    /** Creates the demo cluster's objects through {@code admin}; the preempt body the scheduler would send for them. */
    static String createAndAskPreempt(KubernetesClient admin) throws IOException {
        String body = Files.readString(Path.of("examples/requests/preempt.json"));
        for (HasMetadata object : new SnapshotFileLoader().load(Path.of("examples/demo-cluster.yaml"))) {
            HasMetadata created = admin.resource(object).create();
            if (object instanceof Pod) { // the API names pods by UIDs of its own: the scheduler would send those
                body = body.replace(object.getMetadata().getUid(), created.getMetadata().getUid());
            }
        }
        return body;
    }
}
