package dev.makeroom.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /**
     * Every makeroom_ metric name the given queries (a dashboard, alert rules) use, in order of
     * appearance, each asserted to be in the scrape. The informer gauges are named but not asserted:
     * only a live view has informers, and the demo runs on a snapshot file.
     */
    public static List<String> assertExposesEveryMetricIn(String queries, String scrape) {
        List<String> names = new ArrayList<>();
        Matcher used = Pattern.compile("makeroom_[a-z_]+").matcher(queries);
        while (used.find()) {
            String name = used.group();
            names.add(name);
            // the live view's, the rescheduler's and the queues' metrics exist only where those run: their own tests check them
            if (!name.startsWith("makeroom_informer_") && !name.startsWith("makeroom_rescheduler_")
                    && !name.startsWith("makeroom_queue_")) {
                assertThat(scrape).as(name).containsPattern("(?m)^" + name + "[{ ]");
            }
        }
        return names;
    }
}
