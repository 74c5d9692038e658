package dev.makeroom.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * docs/benchmarks.md as the load tools write it: each owns a section between {@code <!-- name:start -->}
 * and {@code <!-- name:end -->}, replaced whole by its next run (appended when it is not there yet).
 */
final class BenchmarksDoc {

    private static final Path DOC = Path.of("docs/benchmarks.md");

    private BenchmarksDoc() {
    }

    /** Puts {@code report}, which starts and ends with the markers of {@code name}, in place of the last one. */
    static void replaceSection(String name, CharSequence report) throws IOException {
        String start = "<!-- " + name + ":start -->";
        String end = "<!-- " + name + ":end -->\n";
        String current = Files.exists(DOC) ? Files.readString(DOC) : "# Benchmarks\n";
        int from = current.indexOf(start);
        int to = current.indexOf(end);
        String updated = from >= 0 && to > from
                ? current.substring(0, from) + report + current.substring(to + end.length())
                : current + "\n" + report;
        Files.writeString(DOC, updated);
    }
}
