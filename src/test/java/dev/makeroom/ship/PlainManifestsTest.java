package dev.makeroom.ship;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code k8s-manifests/makeroom.yaml} is the chart rendered with its default values, so users of
 * plain manifests get exactly what the chart's tests checked. After changing the chart, regenerate
 * it with {@code ./mvnw -B test -Dtest=PlainManifestsTest -Dmakeroom.manifests.write=true}.
 */
class PlainManifestsTest {

    static final Path MANIFESTS = Path.of("k8s-manifests/makeroom.yaml");

    @Test
    void the_plain_manifests_are_the_default_rendering_of_the_chart() throws IOException {
        String rendered = Chart.template(Map.of());
        if (Boolean.getBoolean("makeroom.manifests.write")) {
            Files.writeString(MANIFESTS, rendered);
        }
        assertThat(MANIFESTS).as("k8s-manifests/makeroom.yaml is missing; see this test's comment to write it").exists();
        assertThat(Files.readString(MANIFESTS))
                .as("k8s-manifests/makeroom.yaml differs from the chart's default rendering; see this test's comment")
                .isEqualTo(rendered);
    }
}
