package dev.makeroom.ship;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Dockerfile, checked without a Docker engine: what it must guarantee to run safely in a
 * cluster. (The layered start it relies on, JarLauncher over the extracted layers, was run by hand
 * against the packaged jar.)
 */
class DockerfileTest {

    /** Instructions one per line: continuation lines joined, comments and blank lines dropped. */
    private final List<String> lines = Files.readString(Path.of("Dockerfile")).replace("\\\n", " ").lines()
            .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();

    DockerfileTest() throws IOException {
    }

    private List<String> instructions(String keyword) {
        return lines.stream().filter(l -> l.startsWith(keyword + " ")).toList();
    }

    @Test
    void it_builds_with_the_maven_wrapper_and_runs_on_a_jre() {
        List<String> from = instructions("FROM");
        assertThat(from).hasSize(2);
        assertThat(from.get(0)).contains("-jdk").endsWith("AS build");
        assertThat(from.get(1)).contains("-jre");
        assertThat(String.join("\n", instructions("RUN"))).contains("./mvnw -B -q package")
                .contains("-Djarmode=tools").contains("--layers");
    }

    @Test
    void the_runtime_image_copies_the_spring_boot_layers_least_changed_first() {
        List<String> copies = instructions("COPY").stream().filter(c -> c.contains("--from=build")).toList();
        assertThat(copies).extracting(c -> c.replaceAll(".*/layers/([a-z-]+)/.*", "$1"))
                .containsExactly("dependencies", "spring-boot-loader", "snapshot-dependencies", "application");
        assertThat(instructions("ENTRYPOINT")).singleElement().asString()
                .contains("org.springframework.boot.loader.launch.JarLauncher");
    }

    @Test
    void it_runs_as_a_numeric_non_root_user_sized_from_the_container_limit() {
        List<String> users = instructions("USER");
        assertThat(users).isNotEmpty();
        Matcher user = Pattern.compile("USER (\\d+):(\\d+)").matcher(users.get(users.size() - 1));
        assertThat(user.matches()).isTrue();
        assertThat(Integer.parseInt(user.group(1))).isPositive();
        assertThat(String.join("\n", instructions("ENV"))).contains("-XX:InitialRAMPercentage=50 -XX:MaxRAMPercentage=50").contains("java.io.tmpdir=/tmp");
        assertThat(instructions("EXPOSE")).singleElement().asString().contains("8080").contains("8081");
    }
}
