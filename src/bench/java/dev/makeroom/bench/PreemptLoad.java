package dev.makeroom.bench;

import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The preempt round trip where preemption happens: a cluster of full nodes ({@link FullNodes}, 5,000 ×
 * 30 by default) served by an API stub, makeroom watching it in its own JVM started as the image and
 * the chart run it (G1, the chart's heap for the cluster size, the shipped log level, a GC log), and
 * the kube-scheduler's preempt bodies over 500 candidates, each naming the victims the scheduler would
 * pick. Per phase it reports a sequential client's and an open loop's latencies, makeroom's own
 * request and decision times (its histograms), the GC pauses in the phase (count, longest), the bytes
 * makeroom allocated per decision, and the outcome mix read from makeroom's counters. A phase whose
 * answers are not what its body is named for (mostly PREEMPT, or nothing evicted for "fits anyway")
 * fails the run, and nothing is written.
 *
 * <p>{@code ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=dev.makeroom.bench.PreemptLoad
 * -Dbench.args="5000 30 2000 30" -Dbench.jvmArgs=-Xmx3g} (nodes, pods per node, sequential requests,
 * open-loop seconds); {@code -Dbench.jvmArgs="-Xmx3g -Dbench.serverJavaHome=…"} runs makeroom on another
 * JDK (the image's is 25), {@code -Dload.serverJvmArgs=…} adds flags to makeroom's JVM (e.g. a flight recording).
 */
public final class PreemptLoad {

    private static final int OPEN_RATE = 50;

    private final ServerProcess server;
    private final LoadPhases phases;
    private final GcLog gc;

    private PreemptLoad(ServerProcess server, GcLog gc) {
        this.server = server;
        this.phases = new LoadPhases(server);
        this.gc = gc;
    }

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int podsPerNode = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int sequential = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
        int openSeconds = args.length > 3 ? Integer.parseInt(args[3]) : 30;
        String heap = System.getProperty("load.serverHeap", chartHeap(nodes));
        FullNodes cluster = new FullNodes(nodes, podsPerNode);
        ApiStub api = new ApiStub(cluster);
        api.prebuild(500); // makeroom lists 500 at a time
        KubernetesMockServer apiServer = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                api, false);
        apiServer.init();
        Bodies bodies = new Bodies(cluster);
        Path log = Files.createTempFile("makeroom-preempt-load-", ".log");
        GcLog gc = new GcLog(Files.createTempFile("makeroom-preempt-load-gc-", ".log"));
        System.out.printf("cluster: %d nodes, %d pods; makeroom's log %s, its GC log %s%n", nodes, nodes * podsPerNode,
                log, gc.jvmArg());
        ClientWarmup.run(List.of(bodies.preempts, bodies.fitsAnyway), 5_000);
        ServerProcess server = ServerProcess.startLive(apiServer.url("/"), heap, List.of(gc.jvmArg()), log);
        List<Row> rows;
        try {
            rows = new PreemptLoad(server, gc).run(bodies, sequential, openSeconds);
            holdForAnotherClient(server, bodies);
        } finally {
            server.close();
            apiServer.destroy();
        }
        List<String> wrong = rows.stream().filter(r -> !r.asNamed()).map(r -> r.name() + ": " + r.outcomes()).toList();
        if (!wrong.isEmpty()) {
            System.err.println("answers not as the bodies are named, nothing written:\n" + String.join("\n", wrong));
            System.exit(1);
        }
        write(nodes, podsPerNode, sequential, openSeconds, heap, rows);
        System.exit(0);
    }

    /**
     * With {@code -Dload.hold=<seconds>}: the bodies written to files and makeroom kept up that long
     * after the phases, so that a client of one's own (curl, ab) can check the figures on the same
     * makeroom: {@code ab -n 2000 -c 1 -T application/json -p preempts.json http://127.0.0.1:<port>/scheduler/preempt}.
     */
    private static void holdForAnotherClient(ServerProcess server, Bodies bodies) throws Exception {
        long seconds = Long.getLong("load.hold", 0);
        if (seconds <= 0) {
            return;
        }
        Path dir = Files.createTempDirectory("makeroom-preempt-bodies-");
        Files.write(dir.resolve("preempts.json"), bodies.preempts);
        Files.write(dir.resolve("preempts-full.json"), bodies.preemptsFull);
        Files.write(dir.resolve("fits-anyway.json"), bodies.fitsAnyway);
        System.out.printf("makeroom stays up %d s on http://127.0.0.1:%d/scheduler/preempt (metrics on :%d); bodies in %s%n",
                seconds, server.port, server.managementPort, dir);
        Thread.sleep(seconds * 1000);
    }

    /** The heap the chart gives makeroom for the cluster: half its memory limit (README, Memory). */
    static String chartHeap(int nodes) {
        if (nodes <= 1000) {
            return "320m"; // 640Mi
        }
        if (nodes <= 5000) {
            return "512m"; // 1Gi, the default
        }
        throw new IllegalArgumentException("no chart size measured above 5,000 nodes: give -Dload.serverHeap");
    }

    private List<Row> run(Bodies bodies, int sequential, int openSeconds) throws Exception {
        // every path compiled before measuring, as the scheduler meets a makeroom that has been running
        phases.openLoop("warm-up", "preempt", bodies.preempts, 2 * OPEN_RATE, 20);
        phases.closedLoop("warm-up", "preempt", bodies.preemptsFull, 100);
        phases.openLoop("warm-up", "preempt", bodies.fitsAnyway, 2 * OPEN_RATE, 10);
        List<Row> rows = new ArrayList<>();
        rows.add(measure("sequential, meta victims", PreemptBody.PREEMPTS,
                () -> phases.closedLoop("sequential, meta victims", "preempt", bodies.preempts, sequential)));
        rows.add(measure("open loop " + OPEN_RATE + "/s, meta victims", PreemptBody.PREEMPTS,
                () -> phases.openLoop("open loop, meta victims", "preempt", bodies.preempts, OPEN_RATE, openSeconds)));
        rows.add(measure("sequential, full victim pods", PreemptBody.PREEMPTS,
                () -> phases.closedLoop("sequential, full victim pods", "preempt", bodies.preemptsFull, sequential / 4)));
        rows.add(measure("fits anyway: sequential, meta victims", PreemptBody.FITS_ANYWAY,
                () -> phases.closedLoop("fits anyway, sequential", "preempt", bodies.fitsAnyway, sequential)));
        rows.add(measure("fits anyway: open loop " + OPEN_RATE + "/s, meta victims", PreemptBody.FITS_ANYWAY,
                () -> phases.openLoop("fits anyway, open loop", "preempt", bodies.fitsAnyway, OPEN_RATE, openSeconds)));
        return rows;
    }

    private interface Phase {
        LoadPhases.Result run() throws Exception;
    }

    /**
     * One phase between two full collections (asked with jcmd, so the allocation counter is exact at
     * both ends; their pauses are not the phase's), read from makeroom's metrics before and after.
     */
    private Row measure(String name, PreemptBody body, Phase phase) throws Exception {
        server.collect();
        Scraped before = new Scraped(server.scrape());
        long mark = gc.mark();
        LoadPhases.Result result = phase.run();
        long end = gc.mark();
        server.collect();
        Scraped after = new Scraped(server.scrape());
        List<GcLog.Pause> pauses = pausesUpTo(mark, end);
        PreemptOutcomes outcomes = PreemptOutcomes.counted(delta(before, after, "makeroom_preemption_decisions_total"),
                delta(before, after, "makeroom_preemption_node_searches_total"));
        double decisions = after.value("makeroom_preemption_decision_seconds_count", "")
                - before.value("makeroom_preemption_decision_seconds_count", "");
        Timing request = Timing.of(before, after, "makeroom_extender_request_seconds", "outcome=\"ok\",verb=\"preempt\"");
        Timing decision = Timing.of(before, after, "makeroom_preemption_decision_seconds", "");
        double allocated = after.value("jvm_gc_memory_allocated_bytes_total", "")
                - before.value("jvm_gc_memory_allocated_bytes_total", "");
        Row row = new Row(name, body, result, request, decision, pauses, decisions == 0 ? Double.NaN : allocated / decisions,
                outcomes, SlowestRequests.of(result, gc.windows()));
        System.out.println(row.line());
        return row;
    }

    /** The pauses the GC log holds between two marks (the phase's, without the collections asked around it). */
    private List<GcLog.Pause> pausesUpTo(long mark, long end) throws IOException {
        List<GcLog.Pause> all = gc.since(mark, true);
        List<GcLog.Pause> after = gc.since(end, true);
        return all.subList(0, all.size() - after.size());
    }

    private static Map<String, Long> delta(Scraped before, Scraped after, String series) {
        Map<String, Long> counts = new TreeMap<>();
        Map<String, Double> was = before.byLabel(series, "result");
        after.byLabel(series, "result").forEach((result, now) -> {
            long d = Math.round(now - was.getOrDefault(result, 0.0));
            if (d > 0) {
                counts.put(result, d);
            }
        });
        return counts;
    }

    /** makeroom's own timing of a phase from one of its histograms: p50 and p99 bucket bounds, exact mean. */
    record Timing(double p50, double p99, double mean) {
        static Timing of(Scraped before, Scraped after, String histogram, String labels) {
            TreeMap<Double, Long> was = before.buckets(histogram, labels);
            TreeMap<Double, Long> now = after.buckets(histogram, labels);
            double count = after.value(histogram + "_count", labels) - before.value(histogram + "_count", labels);
            double sum = after.value(histogram + "_sum", labels) - before.value(histogram + "_sum", labels);
            return new Timing(LoadPhases.bound(was, now, 0.5), LoadPhases.bound(was, now, 0.99),
                    count == 0 ? Double.NaN : 1000 * sum / count);
        }

        String text() {
            return String.format(Locale.ROOT, "≤ %s / ≤ %s (%.2f)", LoadPhases.plain(p50), LoadPhases.plain(p99), mean);
        }
    }

    record Row(String name, PreemptBody body, LoadPhases.Result client, Timing request, Timing decision,
               List<GcLog.Pause> pauses, double bytesPerDecision, PreemptOutcomes outcomes, SlowestRequests slowest) {

        boolean asNamed() {
            return client.errors() == 0 && (body == PreemptBody.PREEMPTS ? outcomes.mostlyPreempt() : outcomes.noneEvicted());
        }

        double longestPause() {
            return pauses.stream().mapToDouble(GcLog.Pause::millis).max().orElse(0);
        }

        String line() {
            return String.format(Locale.ROOT, "| %s | %d | %.0f | %.2f / **%.2f** / %.2f | %s | %s | %d, %.1f | %s | %.2f | %s |",
                    name, client.requests(), client.requests() / client.seconds(), client.percentile(50),
                    client.percentile(99), client.percentile(99.9), request.text(), decision.text(), pauses.size(),
                    longestPause(), slowest.text(), bytesPerDecision / 1e6, outcomes.decisions());
        }
    }

    /** The preempt bodies, built once, over the same 500 candidates. */
    private static final class Bodies {
        final byte[] preempts;
        final byte[] preemptsFull;
        final byte[] fitsAnyway;

        Bodies(FullNodes cluster) {
            preempts = body(cluster, PreemptBody.PREEMPTS, true);
            preemptsFull = body(cluster, PreemptBody.PREEMPTS, false);
            fitsAnyway = body(cluster, PreemptBody.FITS_ANYWAY, true);
        }

        private static byte[] body(FullNodes cluster, PreemptBody body, boolean meta) {
            return cluster.preemptBody(body.preemptor(), cluster.candidates(FullNodes.CANDIDATES, body), meta)
                    .getBytes(StandardCharsets.UTF_8);
        }
    }

    private static void write(int nodes, int podsPerNode, int sequential, int openSeconds, String heap, List<Row> rows)
            throws IOException {
        StringBuilder report = new StringBuilder("<!-- preempt-load:start -->\n### PreemptLoad, the last run — ")
                .append(LocalDate.now()).append("\n\n");
        String serverJdk = System.getProperty("bench.serverJavaHome");
        report.append(String.format(Locale.ROOT, "Machine: %d cores; makeroom on %s in its own JVM as the image "
                        + "and chart run it (G1, heap fixed at %s — the chart's for this cluster —, INFO logs), "
                        + "watching an API stub; the client in another JVM on the same cores. Cluster: %d full nodes, "
                        + "%d pods (FullNodes: every node's cpu requested to the last millicore, 15 interchangeable "
                        + "priority-0 fillers each, victims of priorities 0, 100 and 1,000, budgets, opt-outs, a "
                        + "quarter of the nodes at their pod limit). Each body is the scheduler's over %d candidates, "
                        + "naming the victims it would pick on each.%n%n", Runtime.getRuntime().availableProcessors(),
                serverJdk == null ? "JDK " + System.getProperty("java.version") : "the JDK in " + serverJdk, heap, nodes,
                nodes * podsPerNode, FullNodes.CANDIDATES));
        report.append("Command:\n\n```sh\n./mvnw -B -Pbench test-compile exec:exec -Dbench.main=dev.makeroom.bench.PreemptLoad")
                .append(" -Dbench.args=\"").append(nodes).append(' ').append(podsPerNode).append(' ').append(sequential)
                .append(' ').append(openSeconds).append("\" -Dbench.jvmArgs=")
                .append(System.getProperty("bench.serverJavaHome") == null ? "-Xmx3g"
                        : "\"-Xmx3g -Dbench.serverJavaHome=" + System.getProperty("bench.serverJavaHome") + "\"")
                .append("\n```\n\n");
        report.append("Client: one request at a time on one connection (sequential), or due at fixed times on 16 "
                + "connections (open loop, latency from when each was due). makeroom's request and decision "
                + "times: the buckets of its `makeroom_extender_request_seconds` and "
                + "`makeroom_preemption_decision_seconds` holding 50% and 99% of the phase, and the exact mean. GC: "
                + "the pauses G1 logged during the phase. Allocated: `jvm_gc_memory_allocated_bytes_total` over the "
                + "phase (read after a full collection at both ends) per decision (any object over half a G1 "
                + "region would be allocated outside the young generation and not counted; makeroom reads "
                + "preempt bodies as they arrive, so none is). Outcomes: makeroom's "
                + "`makeroom_preemption_decisions_total` over the phase; the run fails unless the preempting phases "
                + "mostly preempt (and more than half the candidates can make room) and the \"fits anyway\" "
                + "phases evict nothing. Slowest 1%: of the phase's slowest hundredth of requests, how many "
                + "overlapped a GC pause, how many (of the rest) a concurrent marking cycle, how many neither "
                + "(the GC log's wall-clock times beside the client's).\n\n");
        report.append("| scenario | requests | req/s | client p50 / p99 / p99.9 ms | makeroom request p50 / p99 ms "
                + "(mean) | decision p50 / p99 ms (mean) | GC pauses: count, longest ms | slowest 1%: in a pause, "
                + "in marking, neither | MB allocated per decision | outcomes |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        rows.forEach(r -> report.append(r.line()).append('\n'));
        report.append("\nCandidate nodes of the first phase (").append(rows.get(0).name()).append("), by how they ended: ")
                .append(rows.get(0).outcomes().nodes()).append(".\n<!-- preempt-load:end -->\n");
        System.out.println(report);
        BenchmarksDoc.replaceSection("preempt-load", report);
    }
}
