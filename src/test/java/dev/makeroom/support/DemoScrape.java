package dev.makeroom.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A Prometheus scrape of a makeroom on the demo cluster after one call of each verb from the README. */
public final class DemoScrape {

    private DemoScrape() {
    }

    public static String afterOneCallPerVerb(int port, int managementPort) throws IOException {
        ExtenderClient client = new ExtenderClient(port);
        for (String verb : List.of("filter", "prioritize", "preempt")) {
            assertThat(client.post("/scheduler/" + verb, Files.readString(Path.of("examples/requests/" + verb + ".json")))
                    .statusCode()).isEqualTo(200);
        }
        return new ExtenderClient(managementPort).get("/actuator/prometheus").body();
    }
}
