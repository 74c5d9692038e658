package dev.makeroom.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Properties;

/**
 * {@code --help} and {@code --version}: answered and the process ends, before anything starts. A tool
 * operators run by hand must not bring up a server, a cluster watch and two ports to say how it is used.
 */
public final class InfoFlags {

    static final String USAGE = """
            makeroom: a kube-scheduler extender that decides preemption, and a rescheduler.

            Usage:
              java -jar makeroom.jar [--property=value ...]     serve the extender verbs and the debug API
              java -jar makeroom.jar --why=NAMESPACE/POD|@POD.yaml [--dump=FILE] [--kubernetes-version=1.36]
                                                                why a pod waits, and what preemption would do
              java -jar makeroom.jar --help | --version

            Common properties (all in docs/configuration.md):
              --makeroom.cluster.source=kubernetes|snapshot     where the cluster view comes from
              --makeroom.cluster.snapshot=FILE                  a cluster as YAML, for trying makeroom out
              --server.port=8080                                the extender verbs (/scheduler/filter, ...)
              --management.server.port=8081                     health, metrics and /debug
              --makeroom.rescheduler.enabled=true               move running pods (mode dry-run or evict)
            """;

    private InfoFlags() {
    }

    /** Whether {@code args} ask for help or the version. */
    public static boolean asked(String[] args) {
        return List.of(args).stream().anyMatch(a -> a.equals("--help") || a.equals("-h") || a.equals("--version"));
    }

    /** Prints what {@code args} ask for (help wins over the version); the process's exit code. */
    public static int answer(String[] args, PrintStream out) {
        if (List.of(args).stream().anyMatch(a -> a.equals("--help") || a.equals("-h"))) {
            out.print(USAGE);
        } else {
            out.println("makeroom " + version() + " (Java " + System.getProperty("java.version") + ")");
        }
        return 0;
    }

    /** The version the build recorded ({@code META-INF/build-info.properties}), or "unknown" outside a build. */
    static String version() {
        try (InputStream in = InfoFlags.class.getResourceAsStream("/META-INF/build-info.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties build = new Properties();
            build.load(in);
            return build.getProperty("build.version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
