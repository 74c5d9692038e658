package dev.makeroom.oracle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Runs the CBC solver (the {@code cbc} command of Debian's {@code coinor-cbc}) on a model in LP
 * format and reads back the chosen binary variables.
 */
final class Cbc {

    private Cbc() {
    }

    /** Whether {@code cbc} can be run here. */
    static boolean installed() {
        try {
            Process process = new ProcessBuilder("cbc", "-quit").redirectErrorStream(true).start();
            process.getInputStream().readAllBytes();
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Solves {@code lp} to proven optimality within {@code seconds}, or throws
     * {@link SolverOracle.Unproven}; answers the indices of the variables {@code chosen} selects that
     * are 1 in the optimum.
     */
    static Set<Integer> solve(String lp, int seconds, String what, ToIntFunction<String> index,
                              Predicate<String> chosen) {
        try {
            Path dir = Files.createTempDirectory("makeroom-cbc");
            try {
                Path model = dir.resolve("model.lp");
                Path solution = dir.resolve("solution.txt");
                Files.writeString(model, lp);
                Process process = new ProcessBuilder("cbc", model.toString(), "sec", String.valueOf(seconds),
                        "solve", "solu", solution.toString()).redirectErrorStream(true).start();
                String log = new String(process.getInputStream().readAllBytes());
                if (!process.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new SolverOracle.Unproven(what + ": cbc did not exit");
                }
                List<String> lines = Files.exists(solution) ? Files.readAllLines(solution) : List.of();
                if (lines.isEmpty() || !lines.get(0).startsWith("Optimal")) {
                    throw new SolverOracle.Unproven(what + ": " + (lines.isEmpty() ? log : lines.get(0)));
                }
                Set<Integer> ones = new HashSet<>();
                for (String line : lines.subList(1, lines.size())) {
                    String[] fields = line.trim().split("\\s+");
                    // "index name value reduced-cost", with "**" before the index of an infeasible row
                    int at = fields[0].equals("**") ? 1 : 0;
                    String name = fields[at + 1];
                    if (chosen.test(name) && Double.parseDouble(fields[at + 2]) > 0.5) {
                        ones.add(index.applyAsInt(name));
                    }
                }
                return ones;
            } finally {
                try (var files = Files.list(dir)) {
                    for (Path file : files.toList()) {
                        Files.delete(file);
                    }
                }
                Files.delete(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
