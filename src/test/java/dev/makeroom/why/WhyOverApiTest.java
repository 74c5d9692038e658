package dev.makeroom.why;

import dev.makeroom.support.FreePort;
import dev.makeroom.cluster.SnapshotFileLoader;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The "why" asked of a live cluster (the CRUD mock API holding the demo cluster's objects): the same
 * answer as from the dump of that cluster, and a clear exit 2 when the API does not answer.
 */
@EnableKubernetesMockClient(crud = true)
class WhyOverApiTest {

    KubernetesMockServer server;
    KubernetesClient client;

    private String why(Supplier<KubernetesClient> clients, int[] exit, String... args) {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        exit[0] = WhyCommand.run(args, new PrintStream(printed, true, StandardCharsets.UTF_8), clients);
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void without_a_dump_the_cluster_is_read_from_the_api_and_answers_as_its_dump_does() {
        server.setVersionInfo(new VersionInfo.Builder().withMajor("1").withMinor("36").withGitVersion("v1.36.3").build());
        for (HasMetadata object : new SnapshotFileLoader().load(Path.of("examples/demo-cluster.yaml"))) {
            client.resource(object).create();
        }
        int[] fromApi = new int[1];
        int[] fromDump = new int[1];
        String live = why(() -> MockApiClients.clientFor(client), fromApi, "--why=default/critical-job");
        String dumped = why(() -> {
            throw new AssertionError("a dump needs no API");
        }, fromDump, "--why=default/critical-job", "--dump=examples/demo-cluster.yaml");
        assertThat(fromApi[0]).isZero();
        assertThat(live).contains("preemption: PREEMPT (on node-a evict default/batch-big)").isEqualTo(dumped);
        assertThat(why(() -> MockApiClients.clientFor(client), fromApi, "--why=default/nobody"))
                .startsWith("no pod default/nobody in the cluster at " + client.getConfiguration().getMasterUrl());
        assertThat(fromApi[0]).isEqualTo(2);
    }

    @Test
    void an_api_that_does_not_answer_exits_2_saying_so() throws Exception {
        int closed = FreePort.next(); // nothing listens there
        String url = "https://127.0.0.1:" + closed;
        int[] exit = new int[1];
        String printed = why(() -> new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl(url)
                .withRequestRetryBackoffLimit(0).withTrustCerts(true).build()).build(), exit, "--why=default/critical-job");
        assertThat(exit[0]).isEqualTo(2);
        assertThat(printed).startsWith("cannot read the cluster from the API");
    }
}
