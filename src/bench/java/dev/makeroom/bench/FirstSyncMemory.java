package dev.makeroom.bench;

import dev.makeroom.support.Await;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * makeroom's first sync of a large cluster in its own JVM under a heap cap: a generated cluster
 * ({@link ApiStub}: default 5,000 nodes × 30 pods) served over HTTP by fabric8's mock server in this
 * JVM, makeroom in a child JVM with the image's JVM flags and {@code -Xmx<cap>} watching it.
 * Reports whether makeroom became ready, how long after start, its peak resident size (VmHWM) and
 * its heap after a full GC.
 *
 * <p>{@code ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=dev.makeroom.bench.FirstSyncMemory
 * -Dbench.args="5000 30 512m" -Dbench.jvmArgs=-Xmx6g}
 */
public final class FirstSyncMemory {

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int podsPerNode = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        String heap = args.length > 2 ? args[2] : "512m";
        ApiStub api = new ApiStub(new TeamsCluster(nodes, podsPerNode));
        api.prebuild(500); // makeroom lists 500 at a time
        api.listRequests.set(0);
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
        server.init();
        int port = ServerProcess.freePort();
        int management = ServerProcess.freePort();
        Path log = Files.createTempFile("makeroom-first-sync", ".log");
        // as the image runs it (its collector, and when it marks, shape how much heap a sync needs);
        // e.g. -Dsync.serverJvmArgs=-XX:StartFlightRecording=filename=sync.jfr to profile makeroom's sync
        List<String> command = ServerProcess.liveCommand(server.url("/"), heap,
                ServerProcess.jvmArgsFrom("sync.serverJvmArgs"), port, management);
        long start = System.nanoTime();
        Process makeroom = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            HttpClient http = HttpClient.newHttpClient();
            URI readiness = URI.create("http://127.0.0.1:" + management + "/actuator/health/readiness");
            boolean ready;
            try {
                Await.until("makeroom is ready or has exited", Duration.ofMinutes(5), ServerProcess.READINESS_POLL,
                        () -> !makeroom.isAlive() || answers200(http, readiness));
                ready = makeroom.isAlive();
            } catch (AssertionError stillSyncing) {
                ready = false;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (!ready) {
                System.out.printf("%d nodes, %d pods, -Xmx%s: NOT READY (%s after %.1f s); log %s%n", nodes,
                        nodes * podsPerNode, heap, makeroom.isAlive() ? "still syncing" : "exited " + makeroom.exitValue(),
                        seconds, log);
                return;
            }
            long hwm = status(makeroom.pid(), "VmHWM");
            long heapAfterGc = ServerProcess.usedAfterGc(makeroom.pid());
            System.out.printf("%d nodes, %d pods, -Xmx%s: ready after %.1f s (JVM start included), peak RSS %d MB, "
                            + "heap after full GC %d MB, largest list page %d KB, %d list requests; log %s%n",
                    nodes, nodes * podsPerNode, heap, seconds, hwm / 1024, heapAfterGc / (1024 * 1024),
                    api.largestPageBytes.get() / 1024, api.listRequests.get(), log);
        } finally {
            makeroom.destroy();
            makeroom.waitFor();
            server.destroy();
        }
    }

    private static boolean answers200(HttpClient http, URI uri) {
        try {
            return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException starting) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static long status(long pid, String field) throws IOException {
        Matcher m = Pattern.compile("(?m)^" + field + ":\\s+(\\d+) kB").matcher(Files.readString(Path.of("/proc/" + pid + "/status")));
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
