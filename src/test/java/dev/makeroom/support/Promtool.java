package dev.makeroom.support;


import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the real {@code promtool} (Debian's prometheus package) over a scrape or a rules file. */
public final class Promtool {

    private static final Path PROMTOOL = Path.of("/usr/bin/promtool");

    private Promtool() {
    }

    /**
     * promtool's findings about makeroom_ metrics (the JVM's and Tomcat's own are not ours to fix).
     * Fails on a format error (exit 1); aborts the test where promtool is missing outside CI.
     */
    public static List<String> findingsAboutMakeroom(String scrape) throws IOException, InterruptedException {
        return findings(scrape).stream().filter(line -> line.startsWith("makeroom_")).toList();
    }

    /** Every lint finding of {@code promtool check metrics} on the scrape, whoever's series. */
    public static List<String> findings(String scrape) throws IOException, InterruptedException {
        Result check = run(scrape, "check", "metrics");
        assertThat(check.exit()).as("0: clean, 3: lint findings only; 1 would be a format error\n" + check.output())
                .isIn(0, 3);
        return check.output().lines().filter(line -> !line.isBlank()).toList();
    }

    /** {@code promtool check rules} over a Prometheus rules file: its output, having asserted success. */
    public static String checkRules(String rules) throws IOException, InterruptedException {
        Path file = Files.createTempFile("makeroom-rules", ".yaml");
        try {
            Files.writeString(file, rules);
            Result check = run("", "check", "rules", file.toString());
            assertThat(check.exit()).as(check.output()).isZero();
            return check.output();
        } finally {
            Files.delete(file);
        }
    }

    /**
     * {@code promtool test rules}: {@code tests} is a unit-test document without {@code rule_files},
     * run against {@code rules}. Returns promtool's output, having asserted that every test passed.
     */
    public static String testRules(String rules, String tests) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("makeroom-rule-tests");
        try {
            Files.writeString(dir.resolve("rules.yaml"), rules);
            Files.writeString(dir.resolve("tests.yaml"), "rule_files: [rules.yaml]\n" + tests);
            Result test = run("", "test", "rules", dir.resolve("tests.yaml").toString());
            assertThat(test.exit()).as(test.output()).isZero();
            return test.output();
        } finally {
            try (var files = Files.list(dir)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(dir);
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result run(String stdin, String... args) throws IOException, InterruptedException {
        ExternalTool.needed(Files.isExecutable(PROMTOOL), "promtool", "apt-get install prometheus");
        Path input = Files.createTempFile("makeroom-promtool", ".txt");
        try {
            Files.writeString(input, stdin);
            List<String> command = new java.util.ArrayList<>(List.of(PROMTOOL.toString()));
            command.addAll(List.of(args));
            Process process = new ProcessBuilder(command).redirectInput(input.toFile()).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            return new Result(process.exitValue(), output);
        } finally {
            Files.delete(input);
        }
    }
}
