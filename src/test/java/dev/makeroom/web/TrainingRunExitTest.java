package dev.makeroom.web;

import dev.makeroom.MakeroomApplication;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A training run ({@code makeroom.web.exit-after-warmup}) warms the decision paths on the cluster view
 * and then exits with code 0, in a JVM of its own as the Dockerfile's training run does.
 */
class TrainingRunExitTest {

    @Test
    void a_training_run_warms_the_decision_paths_then_exits_cleanly() throws Exception {
        Path log = Files.createTempFile("makeroom-training-run", ".log");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), MakeroomApplication.class.getName(),
                "--server.port=0", "--management.server.port=0", "--makeroom.cluster.source=snapshot",
                "--makeroom.cluster.snapshot=examples/demo-cluster.yaml",
                "--makeroom.web.warmup=1s", "--makeroom.web.exit-after-warmup=true")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertThat(child.waitFor(2, TimeUnit.MINUTES)).as("the training run ended; its log: " + log).isTrue();
            String output = Files.readString(log);
            assertThat(child.exitValue()).as(output).isZero();
            assertThat(output).contains("decision paths warmed").contains("over HTTP")
                    .contains("training run done after").doesNotContain("ERROR");
            Files.delete(log);
        } finally {
            child.destroyForcibly();
        }
    }
}
