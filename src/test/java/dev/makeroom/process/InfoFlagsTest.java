package dev.makeroom.process;

import dev.makeroom.MakeroomApplication;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --help} and {@code --version} run as an operator runs them: the process prints its answer and
 * ends with 0, and nothing starts (a server would not end, and would log Spring's banner lines).
 */
class InfoFlagsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            --help                                 | Usage:
            -h                                     | java -jar makeroom.jar --why=NAMESPACE/POD
            --version                              | makeroom 0.1.0
            --server.port=0 --help                 | --makeroom.rescheduler.enabled=true
            """)
    void the_answer_is_printed_and_nothing_starts(String args, String expected) throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), MakeroomApplication.class.getName()));
        command.addAll(java.util.List.of(args.split(" ")));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the process ended").isTrue();
            String out = new String(child.getInputStream().readAllBytes());
            assertThat(child.exitValue()).as(out).isZero();
            assertThat(out).contains(expected).doesNotContain("Starting MakeroomApplication").doesNotContain("Tomcat");
        } finally {
            child.destroyForcibly();
        }
    }
}
