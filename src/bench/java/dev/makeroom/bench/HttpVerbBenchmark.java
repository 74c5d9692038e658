package dev.makeroom.bench;

import dev.makeroom.MakeroomApplication;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * filter and prioritize as the scheduler calls them: real HTTP/1.1 on one kept-alive connection, through
 * Tomcat, the servlet filters and the verbs, to makeroom running in this JVM on a 5,000-node cluster (a
 * snapshot file), 500 names a call and the pod a kube-scheduler 1.36 sent. Run with {@code -prof gc}: JMH
 * then counts what every thread allocated per call, the server's as well as this client's, which reads and
 * writes into arrays it reuses and allocates nothing per call. The answer is checked on every call (status
 * and length, against a first answer read in full: every name passes the filter and has a score).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class HttpVerbBenchmark {

    private static final KubernetesSerialization K8S = new KubernetesSerialization();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Param({"5000"})
    int nodes;

    @Param({"500"})
    int asked;

    @Param({"filter", "prioritize"})
    String verb;

    /** Whose pod the body carries: a 1.36 scheduler's, or a 1.26 one's (with its managedFields, twice the bytes). */
    @Param({"1.36"})
    String podFrom;

    private ConfigurableApplicationContext app;
    private Path snapshot;
    private Socket socket;
    private OutputStream out;
    private InputStream in;
    private byte[] request;
    private final byte[] answer = new byte[1 << 20];
    private int expectedLength;
    private int bodyLength;
    private long calls;
    private final ThreadAllocation serverBytes = new ThreadAllocation("http-nio-");

    @Setup(Level.Trial)
    public void start() throws IOException {
        Random random = new Random(42);
        List<HasMetadata> objects = new ArrayList<>();
        List<String> names = new ArrayList<>();
        objects.add(SyntheticObjects.priorityClass("batch", 100));
        objects.add(SyntheticObjects.priorityClass("service", 1000));
        long rv = 1;
        for (int n = 0; n < nodes; n++) {
            Node node = SyntheticObjects.node(String.format("node-%05d", n), rv++);
            names.add(node.getMetadata().getName());
            objects.add(node);
            for (int i = 0; i < 30; i++) {
                objects.add(SyntheticObjects.pod(node.getMetadata().getName(), i, random, rv++));
            }
        }
        snapshot = Files.createTempFile("makeroom-http-verbs-", ".json");
        Files.writeString(snapshot, K8S.asJson(new KubernetesList("v1", objects, "List", null)));
        objects.clear();
        int port = ServerProcess.freePort();
        app = SpringApplication.run(MakeroomApplication.class, "--server.port=" + port,
                "--management.server.port=" + ServerProcess.freePort(), "--makeroom.cluster.source=snapshot",
                "--makeroom.cluster.snapshot=" + snapshot, "--logging.level.root=WARN");
        Collections.shuffle(names, new Random(7)); // the scheduler's order is not the table's
        List<String> askedNames = names.subList(0, asked);
        String pod = JSON.writeValueAsString(capturedPod(podFrom));
        StringBuilder body = new StringBuilder("{\"Pod\":").append(pod).append(",\"Nodes\":null,\"NodeNames\":[");
        for (int i = 0; i < askedNames.size(); i++) {
            body.append(i == 0 ? "\"" : ",\"").append(askedNames.get(i)).append('"');
        }
        byte[] bodyBytes = body.append("]}").toString().getBytes(StandardCharsets.UTF_8);
        bodyLength = bodyBytes.length;
        byte[] head = ("POST /scheduler/" + verb + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Accept: application/json\r\nContent-Length: " + bodyBytes.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        request = new byte[head.length + bodyBytes.length];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(bodyBytes, 0, request, head.length, bodyBytes.length);
        socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = socket.getInputStream();
        expectedLength = -1;
        int length = call();
        checkFirstAnswer(new String(answer, 0, length, StandardCharsets.UTF_8), askedNames);
        expectedLength = length;
    }

    /** Every name asked passes the filter (no rule of makeroom's concerns the pod), or has a score. */
    private void checkFirstAnswer(String text, List<String> askedNames) {
        JsonNode tree = JSON.readTree(text);
        JsonNode listed = verb.equals("filter") ? tree.get("NodeNames") : tree;
        if (listed == null || listed.size() != askedNames.size()) {
            throw new IllegalStateException(verb + " did not answer for every node asked: " + text);
        }
        for (int i = 0; i < askedNames.size(); i++) {
            String host = verb.equals("filter") ? listed.get(i).asString() : listed.get(i).get("Host").asString();
            if (!host.equals(askedNames.get(i))) {
                throw new IllegalStateException(verb + " answered " + host + " where " + askedNames.get(i) + " was asked");
            }
        }
    }

    private static JsonNode capturedPod(String version) throws IOException {
        String fixture = switch (version) {
            case "1.36" -> "/fixtures/kube-scheduler-v1.36/names/all-calls/0001-filter.json";
            case "1.26" -> "/fixtures/kube-scheduler-v1.26/cache-capable/filter-request.json";
            default -> throw new IllegalArgumentException("podFrom is 1.36 or 1.26, not " + version);
        };
        try (var stream = HttpVerbBenchmark.class.getResourceAsStream(fixture)) {
            JsonNode body = JSON.readTree(stream);
            return body.has("Pod") ? body.get("Pod") : body.get("pod");
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
        socket.close();
        app.close();
        Files.deleteIfExists(snapshot);
    }

    @Setup(Level.Iteration)
    public void countFromHere() {
        serverBytes.start();
        calls = 0;
    }

    /**
     * What the server's threads allocated a call in this iteration: -prof gc counts every thread, this
     * client's and the JVM's own included, so the request threads' share is read apart (the body's bytes
     * are part of it: the server reads each body into an array of its length).
     */
    @TearDown(Level.Iteration)
    public void reportServerBytes() {
        System.out.printf("%n  server request threads: %.0f B a call (body %d B)%n",
                (double) serverBytes.allocatedSinceStart() / Math.max(1, calls), bodyLength);
    }

    /** One call: the answer's body length, checked against the first answer's. */
    @Benchmark
    public int call() throws IOException {
        calls++;
        out.write(request);
        out.flush();
        int length = readAnswer();
        if (expectedLength >= 0 && length != expectedLength) {
            throw new IllegalStateException(verb + " answered " + length + " bytes, the first answer had " + expectedLength);
        }
        return length;
    }

    /** Reads one response into {@code answer}: a 200 with a Content-Length is the only kind accepted. */
    private int readAnswer() throws IOException {
        int end = 0;
        int headEnd = -1;
        while (headEnd < 0) {
            int n = in.read(answer, end, answer.length - end);
            if (n < 0) {
                throw new IOException("connection closed");
            }
            end += n;
            headEnd = indexOfBlankLine(end);
        }
        if (answer[9] != '2' || answer[10] != '0' || answer[11] != '0') {
            throw new IllegalStateException("not a 200: " + new String(answer, 0, headEnd, StandardCharsets.US_ASCII));
        }
        int length = contentLength(headEnd);
        int bodyStart = headEnd + 4;
        while (end < bodyStart + length) {
            int n = in.read(answer, end, answer.length - end);
            if (n < 0) {
                throw new IOException("connection closed");
            }
            end += n;
        }
        System.arraycopy(answer, bodyStart, answer, 0, length);
        return length;
    }

    private int indexOfBlankLine(int end) {
        for (int i = 3; i < end; i++) {
            if (answer[i] == '\n' && answer[i - 1] == '\r' && answer[i - 2] == '\n' && answer[i - 3] == '\r') {
                return i - 3;
            }
        }
        return -1;
    }

    private int contentLength(int headEnd) {
        byte[] key = "\ncontent-length:".getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + key.length < headEnd; i++) {
            for (int k = 0; k < key.length; k++) {
                if (Character.toLowerCase(answer[i + k]) != key[k]) {
                    continue outer;
                }
            }
            int value = 0;
            for (int j = i + key.length; j < headEnd && answer[j] != '\r'; j++) {
                if (answer[j] >= '0' && answer[j] <= '9') {
                    value = value * 10 + answer[j] - '0';
                }
            }
            return value;
        }
        throw new IllegalStateException("no Content-Length: " + new String(answer, 0, headEnd, StandardCharsets.US_ASCII));
    }
}
