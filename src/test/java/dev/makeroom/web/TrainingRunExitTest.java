package dev.makeroom.web;

import dev.makeroom.MakeroomApplication;
import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericApplicationContext;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A training run ({@code makeroom.web.exit-after-warmup}) warms the decision paths on the cluster view
 * and then exits with code 0, in a JVM of its own as the Dockerfile's training run does; a warm-up
 * that failed ends it with code 1, so that the image build stops.
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

    @Test
    void a_failed_warm_up_ends_a_training_run_with_code_1_after_closing_makeroom() throws Exception {
        assertThat(exitCodeAfter(new DecisionPathsWarmed(3, true, "java.lang.IllegalStateException: no nodes")))
                .isEqualTo(1);
        assertThat(exitCodeAfter(new DecisionPathsWarmed(3, true, null))).isZero();
    }

    @Test
    void without_the_setting_the_end_of_the_warm_up_ends_nothing() {
        GenericApplicationContext context = new GenericApplicationContext();
        context.refresh();
        CompletableFuture<Integer> code = new CompletableFuture<>();
        new TrainingRunExit(false, context, code::complete).warmed(new DecisionPathsWarmed(3, true, "failed"));
        assertThat(context.isActive()).isTrue();
        assertThat(code).isNotDone();
        context.close();
    }

    /** The code a training run exits with after {@code event}, once it has closed its context. */
    private static int exitCodeAfter(DecisionPathsWarmed event) throws Exception {
        GenericApplicationContext context = new GenericApplicationContext();
        context.refresh();
        CompletableFuture<Integer> code = new CompletableFuture<>();
        new TrainingRunExit(true, context, code::complete).warmed(event);
        int exited = code.get(1, TimeUnit.MINUTES);
        assertThat(context.isActive()).as("the context closed before the exit").isFalse();
        return exited;
    }
}
