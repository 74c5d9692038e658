package dev.makeroom.bench;

import dev.makeroom.MakeroomApplication;
import dev.makeroom.support.Await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * makeroom in a JVM of its own, as in production: the load client's heap (the generated cluster,
 * the bodies) and its allocations then neither inflate makeroom's garbage collections nor share
 * its JIT. Started from this JVM's class path; its heap is read with jcmd after a full GC.
 */
final class ServerProcess implements AutoCloseable {

    /**
     * How often a launcher asks makeroom whether it is ready: often enough to time readiness to a tenth of
     * a second, rarely enough that asking costs makeroom nothing (every 10 ms, the health requests took
     * about a tenth of the CPU of a first sync; a kubelet asks every 10 s).
     */
    static final Duration READINESS_POLL = Duration.ofMillis(100);

    private final Process process;
    final int port;
    final int managementPort;
    final String heapMax;

    private ServerProcess(Process process, int port, int managementPort, String heapMax) {
        this.process = process;
        this.port = port;
        this.managementPort = managementPort;
        this.heapMax = heapMax;
    }

    static ServerProcess start(Path snapshot, String heapMax, Path log) throws IOException {
        int port = freePort();
        int management = freePort();
        // the whole heap from the start, as the image sets it (InitialRAMPercentage = MaxRAMPercentage):
        // a heap G1 keeps shrinking and growing again starts a marking cycle every few seconds
        List<String> jvmArgs = new ArrayList<>(List.of("-Xms" + heapMax, "-Xmx" + heapMax));
        // e.g. -Dload.serverJvmArgs=-XX:StartFlightRecording=filename=server.jfr to profile makeroom alone
        jvmArgs.addAll(jvmArgsFrom("load.serverJvmArgs"));
        List<String> command = command(jvmArgs, List.of("--server.port=" + port, "--management.server.port=" + management,
                "--makeroom.cluster.source=snapshot", "--makeroom.cluster.snapshot=" + snapshot,
                "--logging.level.dev.makeroom=WARN"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServerProcess server = new ServerProcess(process, port, management, heapMax);
        server.awaitReady();
        return server;
    }

    /**
     * makeroom watching the API server at {@code apiUrl} (its live view, as in a cluster), started as
     * {@link #liveCommand} says, with {@code -Dload.serverJvmArgs=…} beside; returned once ready.
     */
    static ServerProcess startLive(String apiUrl, String heap, List<String> extraJvmArgs, Path log) throws IOException {
        int port = freePort();
        int management = freePort();
        List<String> jvmArgs = new ArrayList<>(extraJvmArgs);
        jvmArgs.addAll(jvmArgsFrom("load.serverJvmArgs"));
        Process process = new ProcessBuilder(liveCommand(apiUrl, heap, jvmArgs, port, management))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServerProcess server = new ServerProcess(process, port, management, heap);
        server.awaitReady();
        return server;
    }

    /**
     * The command of makeroom watching the API server at {@code apiUrl}, as the image runs it: the
     * image's JVM flags ({@link #imageJvmFlags}) with the heap fixed at {@code heap} in place of its
     * share of the container's memory, the shipped log level; {@code extraJvmArgs} last (e.g. a GC
     * log, a flight recording).
     */
    static List<String> liveCommand(String apiUrl, String heap, List<String> extraJvmArgs, int port, int management)
            throws IOException {
        List<String> jvmArgs = new ArrayList<>(imageJvmFlags(Path.of("Dockerfile")));
        jvmArgs.addAll(List.of("-Xms" + heap, "-Xmx" + heap, "-Dkubernetes.master=" + apiUrl,
                "-Dkubernetes.auth.tryKubeConfig=false", "-Dkubernetes.auth.tryServiceAccount=false",
                "-Dkubernetes.namespace=makeroom-system"));
        jvmArgs.addAll(extraJvmArgs);
        return command(jvmArgs, List.of("--server.port=" + port, "--management.server.port=" + management,
                "--makeroom.cluster.source=kubernetes", "--makeroom.cluster.config-map-namespace=makeroom-system"));
    }

    /**
     * The JVM flags of the image, from the Dockerfile's {@code JAVA_TOOL_OPTIONS}, less the heap's
     * share of the container's memory (a process outside a container is given its heap instead).
     */
    static List<String> imageJvmFlags(Path dockerfile) throws IOException {
        Matcher options = Pattern.compile("(?m)^ENV JAVA_TOOL_OPTIONS=\"([^\"]*)\"").matcher(Files.readString(dockerfile));
        if (!options.find()) {
            throw new IllegalStateException("no JAVA_TOOL_OPTIONS in " + dockerfile);
        }
        return java.util.Arrays.stream(options.group(1).trim().split("\\s+"))
                .filter(flag -> !flag.contains("RAMPercentage")).toList();
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest readiness = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                + "/actuator/health/readiness")).timeout(Duration.ofSeconds(5)).build();
        Await.until("makeroom is ready", Duration.ofMinutes(5), READINESS_POLL, () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("makeroom exited with " + process.exitValue() + "; see its log");
            }
            try {
                return http.send(readiness, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException stillStarting) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * What makeroom's own request histogram says of a verb's answered (200) requests so far: the
     * cumulative counts by upper bound in seconds, and the sum of their seconds by makeroom's clock.
     * Two readings' difference is what makeroom timed in between; the sums' difference over the
     * requests in between is an exact mean, where the buckets give only bounds.
     */
    record Timed(java.util.TreeMap<Double, Long> buckets, double seconds) {
    }

    /** The verb's {@link Timed} as scraped now. */
    Timed timed(String verb) throws IOException, InterruptedException {
        String scrape = scrape();
        Matcher bucket = Pattern.compile("(?m)^makeroom_extender_request_seconds_bucket\\{outcome=\"ok\",verb=\""
                + verb + "\",le=\"([^\"]+)\"} ([0-9.E+]+)$").matcher(scrape);
        java.util.TreeMap<Double, Long> counts = new java.util.TreeMap<>();
        while (bucket.find()) {
            double bound = bucket.group(1).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bucket.group(1));
            counts.put(bound, (long) Double.parseDouble(bucket.group(2)));
        }
        Matcher sum = Pattern.compile("(?m)^makeroom_extender_request_seconds_sum\\{outcome=\"ok\",verb=\""
                + verb + "\"} ([0-9.E+-]+)$").matcher(scrape);
        return new Timed(counts, sum.find() ? Double.parseDouble(sum.group(1)) : 0);
    }

    /** The buckets of {@link #timed}. */
    java.util.TreeMap<Double, Long> histogram(String verb) throws IOException, InterruptedException {
        return timed(verb).buckets();
    }

    /** makeroom's metrics as Prometheus reads them. */
    String scrape() throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort
                + "/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** One full collection, asked with {@code jcmd GC.run}. */
    void collect() throws IOException, InterruptedException {
        jcmd(process.pid(), "GC.run");
    }

    /** Heap in use after a full collection, from {@code jcmd GC.run} and {@code GC.heap_info}. */
    long usedAfterGc() throws IOException, InterruptedException {
        return usedAfterGc(process.pid());
    }

    /** The same for the JVM of {@code pid}, a makeroom started by {@link #command}. */
    static long usedAfterGc(long pid) throws IOException, InterruptedException {
        for (int i = 0; i < 3; i++) {
            jcmd(pid, "GC.run");
        }
        return usedKb(jcmd(pid, "GC.heap_info")) * 1024;
    }

    /**
     * The heap in use, in KB, from the output of {@code jcmd GC.heap_info}, whose line reads
     * "total 3145728K, used …K" on JDK 17 and "total reserved 3145728K, committed 3145728K, used …K" on 25.
     */
    private static long usedKb(String heapInfo) {
        Matcher used = Pattern.compile("total (?:reserved )?\\d+K, (?:committed \\d+K, )?used (\\d+)K").matcher(heapInfo);
        if (!used.find()) {
            throw new IllegalStateException("no heap figure from jcmd GC.heap_info: " + heapInfo);
        }
        return Long.parseLong(used.group(1));
    }

    private static String jcmd(long pid, String what) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(serverTool("jcmd"), Long.toString(pid), what).redirectErrorStream(true).start();
        String output = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!jcmd.waitFor(2, TimeUnit.MINUTES) || jcmd.exitValue() != 0) {
            throw new IllegalStateException("jcmd " + what + " failed: " + output);
        }
        return output;
    }

    /**
     * The command that starts makeroom with {@code jvmArgs} and {@code appArgs}: from this JVM's class
     * path, or as the image runs it with {@code -Dbench.serverJar=} the application jar extracted by
     * {@code java -Djarmode=tools -jar makeroom.jar extract --layers} (a jar naming its libraries: an
     * ahead-of-time cache holds no classes from directories or from a jar inside a jar).
     */
    static List<String> command(List<String> jvmArgs, List<String> appArgs) {
        List<String> command = new ArrayList<>(List.of(serverTool("java")));
        command.addAll(jvmArgs);
        String jar = System.getProperty("bench.serverJar", "");
        command.addAll(jar.isBlank()
                ? List.of("-cp", System.getProperty("java.class.path"), MakeroomApplication.class.getName())
                : List.of("-jar", jar));
        command.addAll(appArgs);
        return command;
    }

    /**
     * A tool of the JDK makeroom runs on: this JVM's, or another's with e.g.
     * {@code -Dbench.serverJavaHome=/usr/lib/jvm/temurin-25-jdk-amd64} (jcmd must match the JVM it asks).
     */
    private static String serverTool(String name) {
        return Path.of(System.getProperty("bench.serverJavaHome", System.getProperty("java.home")), "bin", name).toString();
    }

    /** Extra JVM flags for makeroom's JVM from system property {@code property}, separated by spaces. */
    static List<String> jvmArgsFrom(String property) {
        String extra = System.getProperty(property, "");
        return extra.isBlank() ? List.of() : List.of(extra.trim().split("\\s+"));
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy(); // SIGTERM: graceful shutdown
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
