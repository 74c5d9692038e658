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
 * cluster. (Its start, the extracted jar with an ahead-of-time cache trained on the demo cluster, was
 * run by hand on JDK 25 against the packaged jar: docs/benchmarks.md.)
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
    void it_builds_with_the_maven_wrapper_and_runs_on_a_jre_of_the_same_jdk() {
        List<String> from = instructions("FROM");
        assertThat(from).hasSize(2);
        assertThat(from.get(0)).contains("-jdk").endsWith("AS build");
        assertThat(from.get(1)).contains("-jre");
        assertThat(javaVersion(from.get(1))).as("the JDK that builds is the one that runs").isEqualTo(javaVersion(from.get(0)));
        assertThat(String.join("\n", instructions("RUN"))).contains("./mvnw -B -q package")
                .contains("-Djarmode=tools").contains("--layers");
    }

    @Test
    void the_runtime_image_copies_the_spring_boot_layers_least_changed_first() {
        List<String> copies = instructions("COPY").stream().filter(c -> c.contains("--from=build")).toList();
        assertThat(copies).extracting(c -> c.replaceAll(".*/layers/([a-z-]+)/.*", "$1"))
                .containsExactly("dependencies", "spring-boot-loader", "snapshot-dependencies", "application");
        assertThat(instructions("ENTRYPOINT")).singleElement().asString().contains("\"-jar\", \"makeroom.jar\"");
    }

    @Test
    void the_kubectl_plugin_ships_in_the_image_as_an_executable_file() {
        assertThat(instructions("COPY")).filteredOn(c -> c.contains("plugin/kubectl-makeroom")).singleElement()
                .satisfies(copy -> assertThat(copy).doesNotContain("--from="));
        assertThat(java.nio.file.Files.isExecutable(java.nio.file.Path.of("plugin/kubectl-makeroom")))
                .as("COPY keeps the mode: kubectl runs only executable plugins").isTrue();
    }

    /**
     * The cache is written by the runtime image's own JVM (a cache is specific to one JDK build), with
     * the flags the entrypoint runs with (the ENV comes first), on the demo cluster through a warm-up
     * that ends the run; the entrypoint starts from that file. Method profiles in the cache need JDK 25.
     */
    @Test
    void the_image_starts_from_an_ahead_of_time_cache_trained_in_the_runtime_image() {
        int runtimeStage = lines.indexOf(instructions("FROM").get(1));
        String training = lines.stream().filter(l -> l.contains("-XX:AOTCacheOutput=")).findFirst().orElseThrow();
        int trainingAt = lines.indexOf(training);
        assertThat(trainingAt).as("trained in the runtime stage, after its ENV").isGreaterThan(runtimeStage)
                .isGreaterThan(lines.indexOf(instructions("ENV").get(0)));
        Matcher output = Pattern.compile("-XX:AOTCacheOutput=(\\S+)").matcher(training);
        assertThat(output.find()).isTrue();
        String entrypoint = instructions("ENTRYPOINT").get(0);
        assertThat(entrypoint).contains("\"-XX:AOTCache=" + output.group(1) + "\"");
        assertThat(training).contains("-jar makeroom.jar").contains("--makeroom.web.exit-after-warmup=true")
                .contains("--makeroom.cluster.source=snapshot");
        Matcher mounted = Pattern.compile("source=(\\S+?),target=(\\S+)").matcher(training);
        assertThat(mounted.find()).as("the training cluster is mounted for the run").isTrue();
        assertThat(Path.of(mounted.group(1))).exists();
        assertThat(training).contains("--makeroom.cluster.snapshot=" + mounted.group(2));
        assertThat(javaVersion(instructions("FROM").get(1))).isGreaterThanOrEqualTo(25);
    }

    private static int javaVersion(String from) {
        Matcher version = Pattern.compile(":(\\d+)-").matcher(from);
        assertThat(version.find()).as("a Java version in " + from).isTrue();
        return Integer.parseInt(version.group(1));
    }

    @Test
    void it_runs_as_a_numeric_non_root_user_sized_from_the_container_limit() {
        List<String> users = instructions("USER");
        assertThat(users).isNotEmpty();
        Matcher user = Pattern.compile("USER (\\d+):(\\d+)").matcher(users.get(users.size() - 1));
        assertThat(user.matches()).isTrue();
        assertThat(Integer.parseInt(user.group(1))).isPositive();
        assertThat(String.join("\n", instructions("ENV"))).contains("-XX:InitialRAMPercentage=50 -XX:MaxRAMPercentage=50").contains("java.io.tmpdir=/tmp")
                .as("G1 at any size: the JVM picks the serial collector under 1792 MB").contains("-XX:+UseG1GC")
                .as("no class unloading in remark pauses: it made them the preempt verb's p99")
                .contains("-XX:-ClassUnloadingWithConcurrentMark")
                .as("marking when the old generation fills 60%: the adaptive guess marked every few seconds for nothing")
                .contains("-XX:-G1UseAdaptiveIHOP -XX:InitiatingHeapOccupancyPercent=60");
        assertThat(instructions("EXPOSE")).singleElement().asString().contains("8080").contains("8081");
    }
}
