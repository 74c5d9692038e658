package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo cluster served live from fabric8's mock API server gives the same answers to all three
 * verbs as the demo snapshot file (the README's answers). The mock server assigns its own UIDs,
 * so requests and answers are compared by pod name.
 */
@EnableKubernetesMockClient(crud = true)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "makeroom.cluster.source=kubernetes", "makeroom.cluster.config-map-namespace=makeroom-system"})
class LiveViewEquivalenceTest {

    private static final Path DEMO = Path.of("examples/demo-cluster.yaml");
    private static final Pattern UID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    static KubernetesClient client;

    @TestConfiguration
    static class MockApi {
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient() {
            return MockApiClients.clientFor(client);
        }
    }

    @BeforeAll
    static void loadTheDemoCluster() {
        for (HasMetadata object : new SnapshotFileLoader().load(DEMO)) {
            client.resource(object).create();
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    ClusterView view;

    @Test
    void every_verb_answers_as_on_the_snapshot_file() throws IOException {
        ClusterSnapshot file = new SnapshotFileClusterView(DEMO).snapshot();
        Await.until("the live view has every demo pod", Duration.ofSeconds(10),
                () -> view.ready() && view.snapshot().pods().size() == file.pods().size());
        ClusterSnapshot live = view.snapshot();
        Map<String, String> fileUidToName = names(file);
        Map<String, String> nameToLiveUid = names(live).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getValue, Map.Entry::getKey));
        ExtenderClient http = new ExtenderClient(port);

        List<String> readme = Files.readAllLines(Path.of("README.md"));
        int compared = 0;
        for (int i = 0; i < readme.size() - 1; i++) {
            Matcher curl = Pattern.compile("^\\$ curl -s localhost:8080(\\S+) .*-d @(\\S+)$").matcher(readme.get(i));
            if (!curl.matches()) {
                continue;
            }
            String request = replaceUids(Files.readString(Path.of(curl.group(2))),
                    uid -> nameToLiveUid.get(fileUidToName.get(uid)));
            HttpResponse<String> response = http.post(curl.group(1), request);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(replaceUids(response.body(), names(live)::get))
                    .isEqualTo(replaceUids(readme.get(i + 1), fileUidToName::get));
            compared++;
        }
        assertThat(compared).isEqualTo(3);
    }

    private static Map<String, String> names(ClusterSnapshot snapshot) {
        return snapshot.pods().stream().collect(Collectors.toMap(PodInfo::uid, p -> p.namespace() + "/" + p.name()));
    }

    private static String replaceUids(String text, Function<String, String> replacement) {
        return UID.matcher(text).replaceAll(m -> Matcher.quoteReplacement(String.valueOf(replacement.apply(m.group()))));
    }
}
