package dev.makeroom.web.json;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.Resources;
import org.junit.jupiter.api.Test;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.IntRange;
import dev.makeroom.support.property.Tally;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The byte scanner of filter and prioritize bodies against the Jackson reader it stands in for: on the
 * real schedulers' bodies, of names and of full nodes (and small ones dense in numbers, escapes,
 * nesting and odd names) it reads them itself, and on any mutation of them, whenever it answers, the
 * Jackson reader answers the same (it gives up on everything else, which the Jackson reader then reads
 * or refuses as before).
 */
class NodesArgsScannerProperties {

    static final WireJson JSON = new WireJson();

    /** A small body dense in what the real ones have little of: numbers, literals, escapes, non-ASCII, nesting. */
    private static final String DENSE = "{\"Pod\":[1,{\"a\":null}],\"Nodes\":{\"metadata\":{\"x\":0},\"items\":["
            + "{\"metadata\":{\"name\":\"n1\"},\"v\":{\"k:{\\\"t\\\":1}\":{\"\\u0041\":-0.5e+3},\"w\":[0,-1,2.5,1E5,10250,true,false,null]}},"
            + "{\"spec\":{\"s\":\"\\\"\u00e9\\u00e9\\/\\t\",\"n\":[[],{},[[0]]]},\"Metadata\":{\"Name\":\"n2\",\"q\":1.25e-7}}]},"
            + "\"NodeNames\":null}";

    /** Small bodies of names: cases, an unknown and an empty name, whitespace, names beside objects (names win). */
    private static final List<String> DENSE_NAMES = List.of(
            "{ \"nodenames\" : [ \"elsewhere\" , \"nowhere\",\"\", \"elsewhere\" ] ,\"Pod\":{\"a\":[1,2]},\"Nodes\":null }",
            "{\"Pod\":null,\"NodeNames\":[\"elsewhere\"],\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"n9\"}}]}}",
            "{\"NODENAMES\":[],\"pod\":{}}");

    // after the bodies they are made of
    static final List<byte[]> SEEDS = seeds();
    /** The seeds of full Node objects, in the same order: the body of many nodes last. */
    static final List<byte[]> OBJECT_SEEDS = SEEDS.stream()
            .filter(body -> !JSON.readNodesArgsByTokens(body, ClusterSnapshot.EMPTY.table()).byName()).toList();
    static final NodeTable KNOWN = tableOfSomeNodes();

    /** Bytes a mutation puts in: JSON's structure, its escapes, non-ASCII and control bytes. */
    private static final byte[] INSERTED = {'{', '}', '[', ']', '"', '\\', ',', ':', '0', '1', '-', '+', '.', 'e', 'E',
            'a', 'M', 'n', 't', 'f', 'u', 'x', '/', ' ', '\n', '\t', '\r', 0, 0x1f, 0x7f, (byte) 0x80, (byte) 0xC3,
            (byte) 0xA9, (byte) 0xED, (byte) 0xF4, (byte) 0xFF};

    @Property(tries = 60)
    void the_schedulers_bodies_and_a_dense_one_are_read_by_the_scanner_as_jackson_reads_them(@ForAll @IntRange(max = 1000) int pick) {
        byte[] body = SEEDS.get(pick % SEEDS.size());

        NodesArgs scanned = NodesArgsScanner.read(body, KNOWN);

        assertThat(scanned).as("the scanner reads a well-formed body of names or full nodes").isNotNull();
        assertThat(summary(scanned)).isEqualTo(summary(JSON.readNodesArgsByTokens(body, KNOWN)));
    }

    @Property(tries = 3000)
    void whatever_the_scanner_reads_jackson_reads_the_same(@ForAll @IntRange(max = 1000) int pick, @ForAll long seed) {
        Random random = new Random(seed);
        byte[] body = SEEDS.get(pick % SEEDS.size());
        for (int m = 0, count = 1 + random.nextInt(3); m < count; m++) {
            body = mutate(body, random);
        }

        NodesArgs scanned = NodesArgsScanner.read(body, KNOWN);
        String byTokens;
        try {
            byTokens = summary(JSON.readNodesArgsByTokens(body, KNOWN));
        } catch (BadRequestException e) {
            byTokens = "refused: " + e.getMessage();
        }

        Tally.collect(scanned != null ? "scanned" : byTokens.startsWith("refused") ? "both refuse" : "left to Jackson");
        if (scanned != null) {
            assertThat(summary(scanned)).as(new String(body, StandardCharsets.ISO_8859_1)).isEqualTo(byTokens);
        }
    }

    /** One thread's buffers over every try: what a body leaves in them must not change how the next is read. */
    private static final VerbBuffers REUSED = new VerbBuffers();

    @Property(tries = 2000)
    void bodies_read_through_a_threads_buffers_are_read_as_jackson_reads_them(@ForAll @IntRange(max = 1000) int pick,
                                                                             @ForAll long seed) {
        Random random = new Random(seed);
        byte[] body = SEEDS.get(pick % SEEDS.size());
        for (int m = 0, count = random.nextInt(3); m < count; m++) {
            body = mutate(body, random);
        }

        String reused;
        String byTokens;
        try {
            reused = summary(JSON.readNodesArgs(body, KNOWN, true, REUSED));
        } catch (BadRequestException e) {
            reused = "refused: " + e.getMessage();
        }
        try {
            byTokens = summary(JSON.readNodesArgsByTokens(body, KNOWN));
        } catch (BadRequestException e) {
            byTokens = "refused: " + e.getMessage();
        }

        Tally.collect(NodesArgsScanner.read(body, KNOWN) != null ? "scanned" : "by tokens");
        assertThat(reused).as(new String(body, StandardCharsets.ISO_8859_1)).isEqualTo(byTokens);
    }

    @Test
    void a_body_of_names_is_read_without_jackson_into_the_threads_buffers_and_names_are_the_tables_own() {
        byte[] body = SEEDS.stream().filter(seed -> new String(seed, StandardCharsets.UTF_8).contains("\"NodeNames\":[\""))
                .findFirst().orElseThrow();

        NodesArgs args = NodesArgsScanner.read(body, KNOWN, KNOWN, null, null, REUSED);

        assertThat(args).as("the scanner reads it").isNotNull();
        assertThat(args.byName()).isTrue();
        assertThat(args.nodes().size()).isPositive();
        for (int i = 0; i < args.nodes().size(); i++) {
            int row = args.nodes().row(i);
            if (row >= 0) {
                assertThat(args.nodes().name(i)).isSameAs(KNOWN.name(row));
            }
        }
        assertThat(summary(args)).isEqualTo(summary(JSON.readNodesArgsByTokens(body, KNOWN)));
    }

    /** Splits every scan it can: the seeds are small, so the least body worth a helper is none, and it waits for its helper. */
    private static final ScanSplit ALWAYS = new ScanSplit(0, true);

    @Property(tries = 1500)
    void a_scan_split_across_two_threads_reads_what_one_thread_reads(@ForAll @IntRange(max = 1000) int pick,
                                                                      @ForAll long seed) {
        Random random = new Random(seed);
        // half the time the body of many nodes, the one with a middle to split at
        byte[] body = pick % 2 == 0 ? SEEDS.get(SEEDS.size() - 1) : SEEDS.get(pick / 2 % SEEDS.size());
        for (int m = 0, count = random.nextInt(3); m < count; m++) {
            body = mutate(body, random);
        }
        long taken = ALWAYS.halvesTaken();

        NodesArgs split = NodesArgsScanner.read(body, KNOWN, ALWAYS, null);
        NodesArgs alone = NodesArgsScanner.read(body, KNOWN, null, null);

        Tally.collect(ALWAYS.halvesTaken() > taken ? "helper's half taken" : "scanned alone");
        assertThat(split == null ? "gave up" : summary(split)).as(new String(body, StandardCharsets.ISO_8859_1))
                .isEqualTo(alone == null ? "gave up" : summary(alone));
    }

    @Test
    void the_schedulers_bodies_are_split_at_an_item_boundary_and_the_helpers_half_is_taken() {
        ScanSplit split = new ScanSplit(0, true);
        for (byte[] body : SEEDS) {
            assertThat(summary(NodesArgsScanner.read(body, KNOWN, split, null)))
                    .isEqualTo(summary(NodesArgsScanner.read(body, KNOWN, null, null)));
        }
        assertThat(split.halvesTaken()).as("bodies of several nodes are split").isPositive();
    }

    @Test
    void bodies_read_at_once_on_several_threads_with_the_verbs_split_read_as_one_thread_reads_them() throws Exception {
        byte[] body = manyNodes(SEEDS.get(SEEDS.size() - 1), 40); // 1.8 MB: past the verbs' least body for a helper
        String alone = summary(NodesArgsScanner.read(body, KNOWN, null, null));
        ExecutorService readers = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> reads = new ArrayList<>();
            for (int i = 0; i < 40; i++) { // more reads than one helper serves: many scan on alone
                reads.add(readers.submit(() -> summary(NodesArgsScanner.read(body, KNOWN, ScanSplit.VERBS, null))));
            }
            for (Future<String> read : reads) {
                assertThat(read.get(1, TimeUnit.MINUTES)).isEqualTo(alone);
            }
        } finally {
            readers.shutdownNow();
        }
    }

    @Test
    void a_guess_that_lands_inside_a_node_is_passed_by_and_its_items_are_dropped() {
        // past the middle, the first item's opening bytes come next inside a node, where an object
        // that looks like a node ends its array early: scanned from there, the helper reads one item "fake"
        StringBuilder text = new StringBuilder("{\"Pod\":{},\"Nodes\":{\"items\":[");
        for (int i = 0; i < 4; i++) {
            text.append(i == 0 ? "" : ",").append("{\"metadata\":{\"name\":\"n").append(i).append("\",\"pad\":\"")
                    .append("x".repeat(400)).append("\"},\"x\":[0,{\"metadata\":{\"name\":\"fake\"}}]}");
        }
        byte[] body = text.append("]},\"NodeNames\":null}").toString().getBytes(StandardCharsets.UTF_8);
        ScanSplit split = new ScanSplit(0, true);

        NodesArgs args = NodesArgsScanner.read(body, KNOWN, split, null);

        assertThat(args.names()).containsExactly("n0", "n1", "n2", "n3");
        assertThat(summary(args)).isEqualTo(summary(NodesArgsScanner.read(body, KNOWN, null, null)));
        assertThat(split.halvesTaken()).isZero();
    }

    @Test
    void escapes_and_non_ascii_in_values_are_scanned_but_a_repeated_key_deep_in_a_node_is_jacksons_error() {
        String node = "{\"metadata\":{\"name\":\"node-1\",\"labels\":{\"a\":\"\\u00e9\\\"\\n \u00e9 \uD83D\uDE00\"}},"
                + "\"status\":{\"capacity\":{\"cpu\":\"4\"},\"x\":[1,-0.5e+3,true,false,null,{}]}}";
        byte[] good = ("{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"Nodes\":{\"items\":[" + node + "]},\"NodeNames\":null}")
                .getBytes(StandardCharsets.UTF_8);
        byte[] repeated = new String(good, StandardCharsets.UTF_8).replace("\"cpu\":\"4\"", "\"cpu\":\"4\",\"cpu\":\"5\"")
                .getBytes(StandardCharsets.UTF_8);

        NodesArgs scanned = NodesArgsScanner.read(good, KNOWN);

        assertThat(scanned).isNotNull();
        assertThat(scanned.items().get(0).text()).isEqualTo(node);
        assertThat(summary(scanned)).isEqualTo(summary(JSON.readNodesArgsByTokens(good, KNOWN)));
        assertThat(NodesArgsScanner.read(repeated, KNOWN)).isNull();
        assertThatThrownBy(() -> JSON.readNodesArgs(repeated, KNOWN)).hasMessageStartingWith("malformed JSON: Duplicate");
    }

    /** Everything a reader's result tells the verbs, as one comparable text. */
    static String summary(NodesArgs args) {
        StringBuilder text = new StringBuilder("pod ").append(range(args.pod()))
                .append(" metadata ").append(range(args.listMetadata())).append(" byName ").append(args.byName());
        for (int i = 0; i < args.nodes().size(); i++) {
            text.append("\n").append(args.nodes().name(i)).append(" row ").append(args.nodes().row(i));
            if (!args.byName()) {
                text.append(" at ").append(range(args.items().get(i)));
            }
        }
        return text.toString();
    }

    private static String range(RawJson raw) {
        return raw == null ? "null" : raw.from() + ".." + raw.to() + (raw.isObject() ? " object" : "");
    }

    static byte[] mutate(byte[] body, Random random) {
        if (body.length == 0) {
            return body; // cut to nothing already
        }
        int at = random.nextInt(body.length);
        if (random.nextBoolean()) { // half the time at the grammar's bytes: mostly letters otherwise
            while (at < body.length - 1 && "{}[]\",:\\0123456789-.".indexOf(body[at]) < 0) {
                at++;
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + 16);
        switch (random.nextInt(5)) {
            case 0 -> { // insert a byte
                out.write(body, 0, at);
                out.write(INSERTED[random.nextInt(INSERTED.length)]);
                out.write(body, at, body.length - at);
            }
            case 1 -> { // drop a byte
                out.write(body, 0, at);
                out.write(body, at + 1, body.length - at - 1);
            }
            case 2 -> { // replace a byte
                out.write(body, 0, body.length);
                byte[] changed = out.toByteArray();
                changed[at] = INSERTED[random.nextInt(INSERTED.length)];
                return changed;
            }
            case 3 -> { // repeat an object's first key in front of it, as given or in another case
                int brace = indexOf(body, (byte) '{', at);
                int quote = brace < 0 ? -1 : indexOf(body, (byte) '"', brace);
                int end = quote < 0 ? -1 : indexOf(body, (byte) '"', quote + 1);
                if (end < 0) {
                    return body;
                }
                String key = new String(body, quote, end - quote + 1, StandardCharsets.UTF_8);
                out.write(body, 0, brace + 1);
                out.writeBytes(((random.nextBoolean() ? key : key.toUpperCase()) + ":0,").getBytes(StandardCharsets.UTF_8));
                out.write(body, brace + 1, body.length - brace - 1);
            }
            default -> { // cut the body short
                out.write(body, 0, at);
            }
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] body, byte wanted, int from) {
        for (int i = from; i < body.length; i++) {
            if (body[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static List<byte[]> seeds() {
        try (Stream<Path> files = Files.walk(Path.of("src/test/resources/fixtures/kube-scheduler-v1.26/full-objects"))) {
            List<byte[]> bodies = new ArrayList<>();
            for (Path p : files.sorted().toList()) {
                String file = p.getFileName().toString();
                if (file.matches("(filter|prioritize).*\\.json") && !file.contains("response")) {
                    bodies.add(Files.readAllBytes(p));
                }
            }
            assertThat(bodies).isNotEmpty();
            byte[] largest = Collections.max(bodies, Comparator.comparingInt(body -> body.length));
            bodies.addAll(namesBodies());
            bodies.add(DENSE.getBytes(StandardCharsets.UTF_8));
            bodies.add(manyNodes(largest, 4)); // last: the split's property picks it
            return bodies;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bodies of names that schedulers 1.26, 1.32 and 1.36 sent, and the small dense ones. */
    private static List<byte[]> namesBodies() throws IOException {
        List<byte[]> bodies = new ArrayList<>();
        for (String dir : List.of("kube-scheduler-v1.26/cache-capable", "kube-scheduler-v1.32/names/all-calls",
                "kube-scheduler-v1.36/names/all-calls")) {
            try (Stream<Path> files = Files.list(Path.of("src/test/resources/fixtures", dir))) {
                for (Path p : files.sorted().toList()) {
                    String file = p.getFileName().toString();
                    if (file.matches(".*(filter|prioritize).*\\.json") && !file.contains("response")) {
                        bodies.add(Files.readAllBytes(p));
                    }
                }
            }
        }
        assertThat(bodies).hasSizeGreaterThan(5);
        for (String dense : DENSE_NAMES) {
            bodies.add(dense.getBytes(StandardCharsets.UTF_8));
        }
        return bodies;
    }

    /** {@code body} (the scheduler's, of several nodes) with its node objects {@code times} over: a split has a middle to guess past. */
    static byte[] manyNodes(byte[] body, int times) {
        String text = new String(body, StandardCharsets.UTF_8);
        int from = text.indexOf("[", text.indexOf("\"items\":", text.indexOf("\"Nodes\""))) + 1;
        int to = text.lastIndexOf("]}");
        String items = text.substring(from, to);
        assertThat(items).startsWith("{\"metadata\":{\"name\":");
        return (text.substring(0, from) + String.join(",", Collections.nCopies(times, items)) + text.substring(to))
                .getBytes(StandardCharsets.UTF_8);
    }

    /** A table holding some of the fixtures' node names (so rows are found) and others. */
    private static NodeTable tableOfSomeNodes() {
        ClusterSnapshot.Builder snapshot = ClusterSnapshot.builder();
        Set<String> distinct = new LinkedHashSet<>();
        for (byte[] seed : SEEDS) {
            if (seed.length > 2_000) { // the schedulers' bodies, not the dense ones
                distinct.addAll(JSON.readNodesArgsByTokens(seed, ClusterSnapshot.EMPTY.table()).names());
            }
        }
        List<String> names = new ArrayList<>(distinct);
        for (int i = 0; i < names.size(); i += 2) {
            snapshot.node(names.get(i), Map.of(), Resources.NONE);
        }
        snapshot.node("elsewhere", Map.of(), Resources.NONE);
        return snapshot.build().table();
    }
}
