package dev.makeroom.config;

import dev.makeroom.MakeroomApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** makeroom started on a snapshot file it cannot read stops with what is wrong and where, not a stack trace. */
@ExtendWith(OutputCaptureExtension.class)
class BadSnapshotStartTest {

    @Test
    void a_wrong_typed_value_stops_the_start_with_its_path(@TempDir Path dir, CapturedOutput output) throws IOException {
        Path file = dir.resolve("dump.yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: Pod
                metadata: {name: p, namespace: default}
                spec: {priority: high, containers: [{name: c}]}
                """);

        assertThatThrownBy(() -> new SpringApplicationBuilder(MakeroomApplication.class).run("--server.port=0",
                "--management.server.port=0", "--makeroom.cluster.snapshot=" + file)).isNotNull();

        assertThat(output).contains("APPLICATION FAILED TO START").contains("spec.priority")
                .contains("makeroom.cluster.snapshot").doesNotContain("\tat dev.makeroom");
    }
}
