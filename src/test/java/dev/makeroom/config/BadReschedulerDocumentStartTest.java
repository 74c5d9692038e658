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

/** makeroom started with a rescheduler document it cannot use stops naming the file and the key, not a stack trace. */
@ExtendWith(OutputCaptureExtension.class)
class BadReschedulerDocumentStartTest {

    @Test
    void a_misspelt_resource_stops_the_start_naming_file_and_key(@TempDir Path dir, CapturedOutput output)
            throws IOException {
        Path file = dir.resolve("rescheduler.yaml");
        Files.writeString(file, "policies:\n  rebalance: {enabled: true, low: {cpuu: 30}, high: {cpu: 70}}\n");

        assertThatThrownBy(() -> new SpringApplicationBuilder(MakeroomApplication.class).run("--server.port=0",
                "--management.server.port=0", "--makeroom.web.warmup=0s", "--makeroom.rescheduler.enabled=true",
                "--makeroom.rescheduler.file=" + file)).isNotNull();

        assertThat(output).contains("APPLICATION FAILED TO START").contains(file.toString())
                .contains("policies.rebalance.low.cpuu: not a resource").doesNotContain("\tat dev.makeroom");
    }
}
