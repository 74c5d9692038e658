package dev.makeroom.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Drives a real makeroom over real HTTP with bodies shaped like the kube-scheduler's: generates a
 * cluster (nodes, pods, PDBs) as a snapshot file, starts makeroom on it in a JVM of its own, then runs
 * each verb in both payload modes, a mixed soak, and the JSON floor (parse + write of the same
 * bodies, no logic). Open-loop load measures latency from each request's scheduled start, so a
 * slow answer delays nothing else. Prints a Markdown report and writes it into docs/benchmarks.md.
 *
 * <p>{@code ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=dev.makeroom.bench.LoadTool
 * -Dbench.args="5000 30 30 300" -Dbench.jvmArgs=-Xmx3g} (nodes, pods per node, seconds per
 * open-loop phase, soak seconds).
 */
public final class LoadTool {

    private static final KubernetesSerialization K8S = new KubernetesSerialization();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int RATE = 200;
    /** Full-object requests per phase: of 40 the p99 was the slowest one, a single stall of the machine. */
    private static final int FULL_REQUESTS = 200;
    /** makeroom's own heap: room to parse the whole snapshot file at start-up (a live view needs far less). */
    private static final String SERVER_HEAP = System.getProperty("load.serverHeap", "3g");
    /** -Dload.only=filter|prioritize|preempt|filter-full|prioritize-full|preempt-full|floor: run that phase alone. */
    private static final String ONLY = System.getProperty("load.only", "");
    /** -Dload.firstAfter=10: seconds between readiness and the first calls (makeroom idle), 0 by default. */
    private static final long FIRST_AFTER = Long.getLong("load.firstAfter", 0);

    private final StringBuilder report = new StringBuilder();
    private ServerProcess server;
    private LoadPhases phases;

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int podsPerNode = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        int phaseSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        int soakSeconds = args.length > 3 ? Integer.parseInt(args[3]) : 300;
        new LoadTool().run(nodes, podsPerNode, phaseSeconds, soakSeconds);
        System.exit(0);
    }

    private void run(int nodeCount, int podsPerNode, int phaseSeconds, int soakSeconds) throws Exception {
        Random random = new Random(42);
        List<HasMetadata> objects = new ArrayList<>();
        List<Node> nodes = new ArrayList<>();
        List<List<Pod>> podsByNode = new ArrayList<>();
        objects.add(SyntheticObjects.priorityClass("batch", 100));
        objects.add(SyntheticObjects.priorityClass("service", 1000));
        long rv = 1;
        for (int n = 0; n < nodeCount; n++) {
            Node node = SyntheticObjects.node("node-" + n, rv++);
            nodes.add(node);
            objects.add(node);
            List<Pod> pods = new ArrayList<>();
            for (int i = 0; i < podsPerNode; i++) {
                Pod pod = SyntheticObjects.pod(node.getMetadata().getName(), i, random, rv++);
                pods.add(pod);
                objects.add(pod);
            }
            podsByNode.add(pods);
        }
        for (int app = 0; app < SyntheticObjects.APPS; app += 10) {
            objects.add(SyntheticObjects.budget(app, random.nextInt(3)));
        }
        Path snapshot = Files.createTempFile("makeroom-load-", ".json");
        Files.writeString(snapshot, K8S.asJson(new KubernetesList("v1", objects, "List", null)));
        System.out.printf("cluster: %d nodes, %d pods, snapshot %d MB%n", nodeCount, nodeCount * podsPerNode,
                Files.size(snapshot) >> 20);

        Bodies bodies = new Bodies(nodes, podsByNode, random);
        // only the bodies stay: the generated objects would otherwise sit in the client's heap
        objects.clear();
        nodes.clear();
        podsByNode.clear();
        Path log = Files.createTempFile("makeroom-load-server-", ".log");
        System.out.println("makeroom's log: " + log);
        // the client's code warm first: the first calls below then time makeroom's first answers
        ClientWarmup.run(List.of(bodies.filterNames, bodies.preemptMeta), 5_000);
        server = ServerProcess.start(snapshot, SERVER_HEAP, log);
        phases = new LoadPhases(server);
        Thread.sleep(FIRST_AFTER * 1000); // e.g. to tell compilation still queued at readiness from code never compiled
        // the first calls a freshly ready makeroom answers; makeroom's own histogram tells its share apart
        // from the client's
        List<String> verbs = List.of("filter", "prioritize", "preempt");
        List<ServerProcess.Timed> start = timed(verbs);
        List<LoadPhases.Result> first = List.of(phases.closedLoop("first 20 after readiness: filter", "filter", bodies.filterNames, 20),
                phases.closedLoop("first 20 after readiness: prioritize", "prioritize", bodies.filterNames, 20),
                phases.closedLoop("first 20 after readiness: preempt", "preempt", bodies.preemptMeta, 20));
        List<ServerProcess.Timed> afterFirst = timed(verbs);
        warmUp(bodies);
        if (ONLY.equals("first")) { // the first calls beside 20 warm ones of each verb; writes nothing
            List<ServerProcess.Timed> beforeWarm = timed(verbs);
            List<LoadPhases.Result> warm = List.of(phases.closedLoop("20 warm: filter", "filter", bodies.filterNames, 20),
                    phases.closedLoop("20 warm: prioritize", "prioritize", bodies.filterNames, 20),
                    phases.closedLoop("20 warm: preempt", "preempt", bodies.preemptMeta, 20));
            List<ServerProcess.Timed> afterWarm = timed(verbs);
            for (int i = 0; i < first.size(); i++) {
                double ownFirst = (afterFirst.get(i).seconds() - start.get(i).seconds()) * 1000 / first.get(i).requests();
                double ownWarm = (afterWarm.get(i).seconds() - beforeWarm.get(i).seconds()) * 1000 / warm.get(i).requests();
                System.out.printf("%s: first-20 p50 %.2f ms, max %.2f ms; warm p50 %.2f ms; first/warm p50 %.2f;"
                                + " makeroom's own p50 first ≤ %.2f ms, warm ≤ %.2f ms; own mean first %.2f ms,"
                                + " warm %.2f ms, first/warm %.2f%n",
                        first.get(i).name(), first.get(i).percentile(50), first.get(i).percentile(100),
                        warm.get(i).percentile(50), first.get(i).percentile(50) / warm.get(i).percentile(50),
                        LoadPhases.bound(start.get(i).buckets(), afterFirst.get(i).buckets(), 0.5),
                        LoadPhases.bound(beforeWarm.get(i).buckets(), afterWarm.get(i).buckets(), 0.5), ownFirst, ownWarm,
                        ownFirst / ownWarm);
            }
            server.close();
            return;
        }

        if (!ONLY.isBlank()) { // a quick look at one phase while tuning; writes nothing
            System.out.println((switch (ONLY) {
                case "filter" -> phases.openLoop("filter, NodeNames", "filter", bodies.filterNames, RATE, phaseSeconds);
                case "floor" -> phases.openLoop("filter, one node", "filter", bodies.filterOneNode, RATE, phaseSeconds);
                case "prioritize" -> phases.openLoop("prioritize, NodeNames", "prioritize", bodies.filterNames, RATE, phaseSeconds);
                case "preempt" -> phases.openLoop("preempt, meta victims", "preempt", bodies.preemptMeta, 50, phaseSeconds);
                case "filter-full" -> phases.closedLoop("filter, full Nodes", "filter", bodies.filterFull, FULL_REQUESTS);
                case "prioritize-full" -> phases.closedLoop("prioritize, full Nodes", "prioritize", bodies.filterFull, FULL_REQUESTS);
                case "preempt-full" -> phases.closedLoop("preempt, full victim pods", "preempt", bodies.preemptFull, 60);
                default -> throw new IllegalArgumentException("unknown phase " + ONLY);
            }).line());
            server.close();
            return;
        }
        List<LoadPhases.Result> results = new ArrayList<>();
        results.add(phases.openLoop("filter, NodeNames (" + nodeCount + ")", "filter", bodies.filterNames, RATE, phaseSeconds));
        results.add(phases.openLoop("prioritize, NodeNames (" + nodeCount + ")", "prioritize", bodies.filterNames, RATE, phaseSeconds));
        results.add(phases.openLoop("preempt, fits anyway, meta victims (500 × " + podsPerNode + ")", "preempt", bodies.preemptMeta, 50, phaseSeconds));
        results.add(phases.closedLoop("filter, full Nodes (" + nodeCount + ")", "filter", bodies.filterFull, FULL_REQUESTS));
        results.add(phases.closedLoop("prioritize, full Nodes (" + nodeCount + ")", "prioritize", bodies.filterFull, FULL_REQUESTS));
        results.add(phases.closedLoop("preempt, fits anyway, full victim pods (500 × " + podsPerNode + ")", "preempt", bodies.preemptFull, 60));

        LoadPhases.Result httpFloor = phases.openLoop("filter, NodeNames (1)", "filter", bodies.filterOneNode, RATE, phaseSeconds);

        long heapBefore = server.usedAfterGc();
        LoadPhases.Result soak = soak(bodies, soakSeconds);
        long heapAfter = server.usedAfterGc();
        server.close();

        write(nodeCount, podsPerNode, phaseSeconds, soakSeconds, results, httpFloor, soak, heapBefore, heapAfter, bodies);
        Files.deleteIfExists(snapshot);
    }

    /**
     * Compiles every path (the JIT), then collects the garbage both JVMs made before measuring:
     * makeroom's from parsing the snapshot file (hundreds of MB, otherwise cleaned up by long mixed
     * collections during the first phase), the client's from generating the cluster. What is
     * measured is a makeroom that has been running for a while, as the scheduler meets it.
     *
     * <p>Thousands of requests per verb, sent as the phases send them (open loop, all connections):
     * the JIT compiles a method with C2 only after some 5,000 calls, and the code run once per
     * request (Tomcat, Spring, the controller) gets there only after that many requests. With a
     * warm-up of a few hundred requests per verb, C2 compiled those methods during the measured
     * phases, a few hundred ms of a core each, and the requests that met it waited. Back-to-back
     * requests on one connection warm other code (a connection that never waits for data).
     */
    private void warmUp(Bodies bodies) throws Exception {
        phases.openLoop("warm-up", "filter", bodies.filterNames, 2 * RATE, 25);
        phases.openLoop("warm-up", "prioritize", bodies.filterNames, 2 * RATE, 15);
        phases.openLoop("warm-up", "preempt", bodies.preemptMeta, 100, 20);
        phases.openLoop("warm-up", "filter", bodies.filterOneNode, 2 * RATE, 5);
        phases.closedLoop("warm-up", "filter", bodies.filterFull, FULL_REQUESTS / 2);
        phases.closedLoop("warm-up", "preempt", bodies.preemptFull, 100);
        server.usedAfterGc();
        System.gc();
    }

    /** The request bodies, built once, shaped like the captures in src/test/resources/fixtures. */
    private static final class Bodies {
        final byte[] filterNames;
        final byte[] filterOneNode;
        /** Consecutive scheduling cycles' bodies, sent in turn ({@link NodeObjectBodies}). */
        final List<byte[]> filterFull;
        final byte[] preemptMeta;
        final byte[] preemptFull;

        Bodies(List<Node> nodes, List<List<Pod>> podsByNode, Random random) {
            Pod small = pending("batch-extra", 100, "500m");
            Pod critical = pending("critical-job", 50_000, "4");
            List<String> names = new ArrayList<>(nodes.stream().map(n -> n.getMetadata().getName()).toList());
            Collections.shuffle(names, random);
            filterNames = bytes("{\"Pod\":" + K8S.asJson(small) + ",\"Nodes\":null,\"NodeNames\":"
                    + K8S.asJson(names) + "}");
            filterOneNode = bytes("{\"Pod\":" + K8S.asJson(small) + ",\"Nodes\":null,\"NodeNames\":"
                    + K8S.asJson(names.subList(0, 1)) + "}");
            filterFull = NodeObjectBodies.cycles(v -> K8S.asJson(pending("batch-extra-" + v, 100, "500m")),
                    nodes.stream().map(n -> n.getMetadata().getName()).toList());
            StringBuilder meta = new StringBuilder("{\"Pod\":").append(K8S.asJson(critical))
                    .append(",\"NodeNameToVictims\":null,\"NodeNameToMetaVictims\":{");
            StringBuilder fullVictims = new StringBuilder("{\"Pod\":").append(K8S.asJson(critical))
                    .append(",\"NodeNameToMetaVictims\":null,\"NodeNameToVictims\":{");
            for (int n = 0; n < Math.min(500, nodes.size()); n++) {
                String name = nodes.get(n).getMetadata().getName();
                List<Pod> victims = podsByNode.get(n).subList(0, 2);
                meta.append(n == 0 ? "" : ",").append('"').append(name).append("\":{\"Pods\":[")
                        .append(String.join(",", victims.stream().map(p -> "{\"UID\":\"" + p.getMetadata().getUid() + "\"}").toList()))
                        .append("],\"NumPDBViolations\":0}");
                fullVictims.append(n == 0 ? "" : ",").append('"').append(name).append("\":{\"Pods\":[")
                        .append(String.join(",", victims.stream().map(K8S::asJson).toList()))
                        .append("],\"NumPDBViolations\":0}");
            }
            preemptMeta = bytes(meta.append("}}").toString());
            preemptFull = bytes(fullVictims.append("}}").toString());
        }

        private static Pod pending(String name, int priority, String cpu) {
            return new PodBuilder().withNewMetadata().withName(name).withNamespace("team-0").withUid("uid-" + name)
                    .endMetadata().withNewSpec().withPriority(priority).addNewContainer().withName("main")
                    .withNewResources().addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity("1Gi"))
                    .endResources().endContainer().endSpec().withNewStatus().withPhase("Pending").endStatus().build();
        }

        private static byte[] bytes(String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
    }

    /** makeroom's own timing of each verb, as scraped now. */
    private List<ServerProcess.Timed> timed(List<String> verbs) throws Exception {
        List<ServerProcess.Timed> timed = new ArrayList<>();
        for (String verb : verbs) {
            timed.add(server.timed(verb));
        }
        return timed;
    }

    /** Mixed verbs at the full rate: 70% filter, 25% prioritize, 5% preempt. */
    private LoadPhases.Result soak(Bodies bodies, int seconds) throws Exception {
        Random mix = new Random(7);
        String[] next = new String[1];
        return phases.openLoop("soak, mixed verbs", () -> {
            int r = mix.nextInt(100);
            next[0] = r < 70 ? "filter" : r < 95 ? "prioritize" : "preempt";
            return next[0];
        }, () -> next[0].equals("preempt") ? bodies.preemptMeta : bodies.filterNames, RATE, seconds, null);
    }

    /** Median time to parse and write one body with Jackson, no logic: the floor of any JSON service. */
    private static double floorMillis(byte[] body) {
        long warmUntil = System.nanoTime() + 3_000_000_000L; // compiled, as makeroom's code is by then
        for (int i = 0; i < 5 || System.nanoTime() < warmUntil; i++) {
            JSON.writeValueAsBytes(JSON.readTree(body));
        }
        long[] nanos = new long[31];
        for (int i = 0; i < nanos.length; i++) {
            long t0 = System.nanoTime();
            JSON.writeValueAsBytes(JSON.readTree(body));
            nanos[i] = System.nanoTime() - t0;
        }
        Arrays.sort(nanos);
        return nanos[nanos.length / 2] / 1e6;
    }

    private void write(int nodes, int podsPerNode, int phaseSeconds, int soakSeconds, List<LoadPhases.Result> results,
                       LoadPhases.Result httpFloor, LoadPhases.Result soak, long heapBefore, long heapAfter, Bodies bodies) throws IOException {
        report.append("<!-- load:start -->\n## Extender over HTTP (load tool) — ").append(LocalDate.now()).append("\n\n")
                .append(String.format(Locale.ROOT, "Machine: %d cores, JDK %s. makeroom runs in its own JVM (heap max %s), "
                                + "the load client in another on the same cores. Cluster: %d nodes, %d pods, %d PDBs.%n%n",
                        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                        server.heapMax, nodes, nodes * podsPerNode, SyntheticObjects.APPS / 10))
                .append("Command:\n\n```sh\n./mvnw -B -Pbench test-compile exec:exec -Dbench.main=dev.makeroom.bench.LoadTool")
                .append(" -Dbench.args=\"").append(nodes).append(' ').append(podsPerNode).append(' ').append(phaseSeconds)
                .append(' ').append(soakSeconds).append("\" -Dbench.jvmArgs=-Xmx3g\n```\n\n")
                .append("Open loop at a fixed rate for NodeNames and meta victims: requests are due at fixed times and "
                        + "sent on 16 keep-alive connections; latency counts from when each was due, as the client sees "
                        + "it. One request at a time for the full-object bodies, consecutive scheduling cycles' in turn: "
                        + "another pod each, and 1% of the nodes changed since the one before. \"makeroom p99\": the bucket of "
                        + "makeroom's own `makeroom_extender_request_seconds` histogram holding 99% of the phase's "
                        + "requests, i.e. the time makeroom itself spent, without the client, the network stack and the "
                        + "queueing in front of Tomcat. Measured after a warm-up of every path and a full collection in "
                        + "both JVMs (start-up garbage gone), as the scheduler meets a makeroom that has been running. "
                        + "The preempt rows here are the \"fits anyway\" case: their 4-cpu pod fits on every candidate, "
                        + "so makeroom answers NO_FEASIBLE_NODE without evicting anything; decisions that preempt are "
                        + "measured by PreemptLoad (\"Preempt where preemption happens\").\n\n")
                .append("| scenario | requests | req/s | errors | p50 ms | p99 ms | p99.9 ms | makeroom p99 ms |\n"
                        + "|---|---:|---:|---:|---:|---:|---:|---:|\n");
        results.forEach(r -> report.append(r.line()).append('\n'));
        report.append(soak.line()).append("\n\n");
        report.append("The HTTP floor of this machine: the same open loop with a NodeNames body of one node, where "
                + "makeroom has almost nothing to do. Whatever its p99 is, the client, the loopback network and two "
                + "JVMs sharing two cores add to every request above.\n\n| scenario | requests | req/s | errors | p50 ms "
                + "| p99 ms | p99.9 ms | makeroom p99 ms |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
                .append(httpFloor.line()).append("\n\n");
        report.append(String.format(Locale.ROOT, "Soak: %d s at %d req/s, %d errors; heap after a full GC %.1f MB "
                        + "before and %.1f MB after (%+.1f%%).%n%n", soakSeconds, RATE, soak.errors(),
                heapBefore / 1048576.0, heapAfter / 1048576.0, 100.0 * (heapAfter - heapBefore) / heapBefore));
        report.append("The floor: parsing and writing the same body with Jackson, no logic (median), and makeroom's "
                + "p50 as a multiple of it.\n\n| body | size | floor ms | makeroom p50 ms | multiple |\n|---|---:|---:|---:|---:|\n");
        floorRow("filter, NodeNames", bodies.filterNames, results.get(0));
        floorRow("filter, full Nodes", bodies.filterFull.get(0), results.get(3));
        floorRow("preempt, fits anyway, meta victims", bodies.preemptMeta, results.get(2));
        floorRow("preempt, fits anyway, full victim pods", bodies.preemptFull, results.get(5));
        report.append("<!-- load:end -->\n");
        System.out.println(report);
        BenchmarksDoc.replaceSection("load", report);
    }

    private void floorRow(String name, byte[] body, LoadPhases.Result result) {
        double floor = floorMillis(body);
        report.append(String.format(Locale.ROOT, "| %s | %.1f MB | %.2f | %.2f | %.1f× |%n", name, body.length / 1048576.0,
                floor, result.percentile(50), result.percentile(50) / floor));
    }
}
