package dev.makeroom.web.json;

import dev.makeroom.bench.NodeObjectBodies;
import dev.makeroom.bench.SyntheticCluster;
import dev.makeroom.core.filter.FilterPolicy;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.score.AvoidList;
import dev.makeroom.core.score.ShieldScorePolicy;
import dev.makeroom.web.PodTranslator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Filter and prioritize as the controller runs them, without HTTP: read the body, translate the
 * pod, ask the core, write the answer's bytes. What each request costs makeroom's CPU, apart from
 * Tomcat and Spring; with {@code NodeNames}, and for filter also with full Node objects (a scheduler
 * that is not cache-capable: a 25 MB body at 5,000 nodes, echoed in the answer).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WireVerbBenchmark {

    @Param({"5000"})
    int nodes;

    /** How many node names the scheduler asks about: at 5,000 nodes it scores a tenth of them. */
    @Param({"500"})
    int asked;

    /** The pod asked about: the one a kube-scheduler 1.36 sent (captured, 2 KB), or a minimal one. */
    @Param({"captured", "minimal"})
    String pod;

    private ClusterSnapshot snapshot;
    private byte[] body;
    private List<byte[]> fullBodies;
    private int cycle;
    private final WireJson json = new WireJson();
    private final PodTranslator pods = new PodTranslator();
    private final FilterPolicy filter = new FilterPolicy();
    private final ShieldScorePolicy score = new ShieldScorePolicy();
    private final NodeNameJson nodeNames = new NodeNameJson();

    @Setup
    public void setUp() {
        snapshot = SyntheticCluster.generate(nodes, 30, 42);
        snapshot.table();
        List<String> names = new ArrayList<>(snapshot.nodes().stream().map(NodeInfo::name).toList());
        Collections.shuffle(names, new Random(7)); // the scheduler's order is not the table's
        List<String> askedNames = names.subList(0, Math.min(asked, names.size()));
        String minimal = "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"batch-extra\","
                + "\"namespace\":\"team-0\",\"uid\":\"uid-batch-extra\"},\"spec\":{\"containers\":[{\"name\":\"main\","
                + "\"image\":\"busybox\",\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"}}}],"
                + "\"priority\":100},\"status\":{\"phase\":\"Pending\"}}";
        String pod = this.pod.equals("captured") ? capturedPod() : minimal;
        body = ("{\"Pod\":" + pod + ",\"Nodes\":null,\"NodeNames\":["
                + askedNames.stream().map(n -> '"' + n + '"').collect(Collectors.joining(",")) + "]}")
                .getBytes(StandardCharsets.UTF_8);
        fullBodies = NodeObjectBodies.cycles(v -> minimal.replace("batch-extra", "batch-extra-" + v), names);
    }

    /** The pod of the first filter call a real kube-scheduler 1.36 made (the suite's replayed fixture). */
    private static String capturedPod() {
        try (var in = WireVerbBenchmark.class.getResourceAsStream(
                "/fixtures/kube-scheduler-v1.36/names/all-calls/0001-filter.json")) {
            tools.jackson.databind.json.JsonMapper mapper = tools.jackson.databind.json.JsonMapper.builder().build();
            return mapper.writeValueAsString(mapper.readTree(in).get("Pod"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The next scheduling cycle's body of full Node objects: another pod, 1% of the nodes changed. */
    private byte[] nextFullBody() {
        cycle = (cycle + 1) % fullBodies.size();
        return fullBodies.get(cycle);
    }

    /** Filter with full Node objects in and out, cycle after cycle. */
    @Benchmark
    public AnswerBytes filterFullNodes() {
        NodesArgs args = json.readNodesArgsUnresolved(nextFullBody(), snapshot.table());
        PodInfo pod = pods.toCore(args.pod(), snapshot);
        return NodesAnswers.filter(args, filter.filter(snapshot, pod, args.names(), null, java.time.Instant.EPOCH),
                nodeNames.of(args.nodes().table()));
    }

    /** The full-object body alone, cycle after cycle: read, no core, no answer. */
    @Benchmark
    public NodesArgs readFullNodes() {
        return json.readNodesArgs(nextFullBody(), snapshot.table());
    }

    /** The full-object body read as if no body had been seen before: a scheduler's first cycle. */
    @Benchmark
    public NodesArgs readFullNodesFirstSeen() {
        return NodesArgsScanner.read(nextFullBody(), snapshot.table());
    }

    /** As the extender's filter runs it: names read into, and the answer written from, the thread's buffers. */
    @Benchmark
    public AnswerBytes filter() {
        VerbBuffers buffers = VerbBuffers.ofThisThread();
        NodesArgs args = json.readNodesArgs(body, snapshot.table(), true, buffers);
        PodInfo pod = pods.toCore(args.pod(), snapshot);
        return NodesAnswers.filter(buffers, args, filter.filter(snapshot, pod, args.names(), null, java.time.Instant.EPOCH),
                nodeNames.of(args.nodes().table()));
    }

    /** As the extender's prioritize runs it, through the thread's buffers. */
    @Benchmark
    public AnswerBytes prioritize() {
        VerbBuffers buffers = VerbBuffers.ofThisThread();
        NodesArgs args = json.readNodesArgs(body, snapshot.table(), true, buffers);
        PodInfo pod = pods.toCore(args.pod(), snapshot);
        int[] scores = score.scoreInto(snapshot, pod, args.nodes(), AvoidList.NONE, buffers.scores(args.nodes().size()));
        return NodesAnswers.scores(buffers, args.nodes(), scores, nodeNames.of(args.nodes().table()));
    }

    /** The body alone: read, no core, no answer. */
    @Benchmark
    public NodesArgs read() {
        return json.readNodesArgs(body, snapshot.table());
    }
}
