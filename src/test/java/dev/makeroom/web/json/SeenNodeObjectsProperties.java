package dev.makeroom.web.json;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.Resources;
import org.junit.jupiter.api.Test;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.IntRange;
import dev.makeroom.support.property.Tally;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.makeroom.web.json.NodesArgsScannerProperties.KNOWN;
import static dev.makeroom.web.json.NodesArgsScannerProperties.OBJECT_SEEDS;
import static dev.makeroom.web.json.NodesArgsScannerProperties.manyNodes;
import static dev.makeroom.web.json.NodesArgsScannerProperties.mutate;
import static dev.makeroom.web.json.NodesArgsScannerProperties.summary;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A body read beside the node objects of one seen before reads exactly as the scan of it alone,
 * whatever changed between the two: nodes changed, joined, left, reordered or given twice, a
 * different pod, a broken body, a node table that changed in between.
 */
class SeenNodeObjectsProperties {

    /** A table in which the fixtures' nodes have other rows, and some are missing. */
    private static final NodeTable OTHER = otherTable();

    @Property(tries = 2000)
    void a_body_read_beside_one_seen_before_reads_as_the_scan_of_it_alone(@ForAll @IntRange(max = 1000) int pick,
                                                                          @ForAll long seed) {
        Random random = new Random(seed);
        byte[] before = OBJECT_SEEDS.get(pick % OBJECT_SEEDS.size());
        SeenNodeObjects seen = SeenNodeObjects.of(before, NodesArgsScanner.read(before, KNOWN, null, null), 0);
        byte[] body = before;
        for (int c = 0, count = 1 + random.nextInt(2); c < count; c++) {
            body = changed(body, random);
        }
        NodeTable table = random.nextBoolean() ? KNOWN : OTHER;

        NodesArgs beside = NodesArgsScanner.read(body, table, null, seen);
        NodesArgs alone = NodesArgsScanner.read(body, table, null, null);

        Tally.collect(seen.recognised() > 0 ? "items recognised" : "none recognised");
        assertThat(beside == null ? "gave up" : summary(beside)).as(new String(body, StandardCharsets.ISO_8859_1))
                .isEqualTo(alone == null ? "gave up" : summary(alone));
    }

    @Test
    void in_a_body_with_one_node_changed_every_other_node_is_recognised() {
        byte[] before = manyNodes(OBJECT_SEEDS.get(OBJECT_SEEDS.size() - 1), 3);
        NodesArgs first = NodesArgsScanner.read(before, KNOWN, null, null);
        SeenNodeObjects seen = SeenNodeObjects.of(before, first, 0);
        List<String> items = items(before, first);
        items.set(items.size() / 2, items.get(items.size() / 2).replaceFirst("\"resourceVersion\":\"", "$09"));
        byte[] body = withItems(before, first, items);

        NodesArgs next = NodesArgsScanner.read(body, KNOWN, null, seen);

        assertThat(summary(next)).isEqualTo(summary(NodesArgsScanner.read(body, KNOWN, null, null)));
        assertThat(seen.recognised()).isEqualTo(items.size() - 1);
    }

    @Test
    void a_body_of_other_nodes_is_scanned_as_if_nothing_was_seen_and_split_as_usual() {
        byte[] before = manyNodes(OBJECT_SEEDS.get(OBJECT_SEEDS.size() - 1), 12);
        NodesArgs first = NodesArgsScanner.read(before, KNOWN, null, null);
        SeenNodeObjects seen = SeenNodeObjects.of(before, first, 0);
        List<String> items = new ArrayList<>(items(before, first).stream()
                .map(item -> item.replaceFirst("\"resourceVersion\":\"", "$07")).toList());
        byte[] body = withItems(before, first, items);
        ScanSplit split = new ScanSplit(0, true);

        NodesArgs next = NodesArgsScanner.read(body, KNOWN, split, seen);

        assertThat(items).hasSizeGreaterThan(64); // past the misses a walk along the seen items allows
        assertThat(summary(next)).isEqualTo(summary(NodesArgsScanner.read(body, KNOWN, null, null)));
        assertThat(seen.recognised()).isZero();
        assertThat(split.halvesTaken()).as("the rest was split across two threads").isPositive();
    }

    @Test
    void bodies_under_a_megabyte_are_not_kept() {
        byte[] small = OBJECT_SEEDS.get(0);

        assertThat(SeenNodeObjects.of(small, NodesArgsScanner.read(small, KNOWN, null, null))).isNull();
    }

    /** {@code body} with its items changed in one way: one broken, reordered, dropped, repeated, one of another body's added, or anything. */
    private static byte[] changed(byte[] body, Random random) {
        NodesArgs args = NodesArgsScanner.read(body, KNOWN, null, null);
        if (args == null || args.items().isEmpty()) {
            return mutate(body, random);
        }
        List<String> items = items(body, args);
        int at = random.nextInt(items.size());
        switch (random.nextInt(6)) {
            case 0 -> items.set(at, new String(mutate(items.get(at).getBytes(StandardCharsets.UTF_8), random),
                    StandardCharsets.UTF_8));
            case 1 -> Collections.shuffle(items, random);
            case 2 -> items.remove(at);
            case 3 -> items.add(random.nextInt(items.size() + 1), items.get(at));
            case 4 -> {
                byte[] other = OBJECT_SEEDS.get(random.nextInt(OBJECT_SEEDS.size()));
                NodesArgs otherArgs = NodesArgsScanner.read(other, KNOWN, null, null);
                items.add(at, otherArgs.items().get(random.nextInt(otherArgs.items().size())).text());
            }
            default -> {
                return mutate(body, random);
            }
        }
        return items.isEmpty() ? body : withItems(body, args, items);
    }

    private static List<String> items(byte[] body, NodesArgs args) {
        return new ArrayList<>(args.items().stream().map(RawJson::text).toList());
    }

    /** {@code body} with {@code items} in place of the ones {@code args} read in it. */
    private static byte[] withItems(byte[] body, NodesArgs args, List<String> items) {
        int from = args.items().get(0).from();
        int to = args.items().get(args.items().size() - 1).to();
        return (new String(body, 0, from, StandardCharsets.UTF_8) + String.join(",", items)
                + new String(body, to, body.length - to, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
    }

    private static NodeTable otherTable() {
        ClusterSnapshot.Builder snapshot = ClusterSnapshot.builder();
        snapshot.node("first-of-all", Map.of(), Resources.NONE);
        List<String> names = NodesArgsScannerProperties.JSON.readNodesArgsByTokens(OBJECT_SEEDS.get(0),
                ClusterSnapshot.EMPTY.table()).names();
        for (int i = names.size() - 1; i >= 0; i -= 3) {
            snapshot.node(names.get(i), Map.of(), Resources.NONE);
        }
        return snapshot.build().table();
    }
}
