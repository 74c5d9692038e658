package dev.makeroom.support;

import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A tool from outside Java that some tests drive (docs/development.md lists them): on a developer's
 * machine without it those tests are skipped, saying what to install, so the README's test command
 * passes on a fresh machine; under CI ({@code CI} set, as {@code .ci/run} sets it after installing every
 * tool) a missing tool fails the test instead of skipping it.
 */
public final class ExternalTool {

    private ExternalTool() {
    }

    /** Whether {@code program} is on the PATH. */
    public static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /** Skips the test that needs {@code what} unless it is {@code installed}; under CI, fails it. */
    public static void needed(boolean installed, String what, String install) {
        if (installed) {
            return;
        }
        String message = what + " is not installed (" + install + ")";
        if (System.getenv("CI") != null) {
            throw new IllegalStateException(message + ", and CI needs it: .ci/run installs it");
        }
        Assumptions.abort(message + ": skipped");
    }
}
