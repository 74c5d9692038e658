package dev.makeroom.support;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the real {@code promtool check metrics} (Debian's prometheus package) over a scrape. */
public final class Promtool {

    private Promtool() {
    }

    /**
     * promtool's findings about makeroom_ metrics (the JVM's and Tomcat's own are not ours to fix).
     * Fails on a format error (exit 1); aborts the test where promtool is missing outside CI.
     */
    public static List<String> findingsAboutMakeroom(String scrape) throws IOException, InterruptedException {
        Path promtool = Path.of("/usr/bin/promtool");
        if (!Files.isExecutable(promtool)) {
            // .ci/run installs it; a developer without it is told so rather than passing silently
            assertThat(System.getenv("CI")).as("promtool is missing in CI").isNull();
            Assumptions.abort("promtool is not installed (apt-get install prometheus)");
        }
        Path scraped = Files.createTempFile("makeroom-metrics", ".txt");
        try {
            Files.writeString(scraped, scrape);
            Process check = new ProcessBuilder(promtool.toString(), "check", "metrics")
                    .redirectInput(scraped.toFile()).redirectErrorStream(true).start();
            String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(check.exitValue()).as("0: clean, 3: lint findings only; 1 would be a format error\n" + output)
                    .isIn(0, 3);
            return output.lines().filter(line -> line.startsWith("makeroom_")).toList();
        } finally {
            Files.delete(scraped);
        }
    }
}
