package dev.makeroom.oracle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
                String log = run(model, solution, seconds, what);
                List<String> lines = Files.exists(solution) ? Files.readAllLines(solution) : List.of();
                if (!lines.isEmpty() && lines.get(0).contains("nfeasible")) {
                    // CBC's preprocessing has called a feasible model infeasible (a full-size node whose
                    // earlier stages' optimum is itself a solution): the model is solved again without it,
                    // which changes only how CBC searches, never what is optimal
                    Files.deleteIfExists(solution);
                    log = run(model, solution, seconds, what, "preprocess", "off");
                    lines = Files.exists(solution) ? Files.readAllLines(solution) : List.of();
                }
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

    /** Runs CBC on {@code model}, writing its solution to {@code solution}; answers its log. */
    private static String run(Path model, Path solution, int seconds, String what, String... options)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("cbc", model.toString(), "sec", String.valueOf(seconds)));
        command.addAll(List.of(options));
        command.addAll(List.of("solve", "solu", solution.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String log = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new SolverOracle.Unproven(what + ": cbc did not exit");
        }
        return log;
    }
}
