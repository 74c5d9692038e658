package dev.makeroom.core.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Lookups in the flat node table: by any equal string, by characters, and names whose hashes collide. */
class NodeTableTest {

    /** "Aa" and "BB" have the same String.hashCode, and so do all their concatenations of equal length. */
    private static final List<String> NAMES = List.of("Aa", "BB", "AaAa", "AaBB", "BBAa", "BBBB", "node-1", "node-10",
            "nöde-😀", "");

    private final ClusterSnapshot snapshot = snapshot();

    private static ClusterSnapshot snapshot() {
        ClusterSnapshot.Builder b = ClusterSnapshot.builder();
        NAMES.forEach(name -> b.node(name, Map.of(), Resources.of("cpu", 1000, "pods", 10)));
        for (int i = 0; i < 500; i++) {
            b.node("n-" + i, Map.of(), Resources.NONE);
        }
        return b.build();
    }

    @Test
    void every_node_is_found_by_an_equal_string_and_by_its_characters() {
        NodeTable table = snapshot.table();
        List<String> all = new ArrayList<>(NAMES);
        for (int i = 0; i < 500; i++) {
            all.add("n-" + i);
        }
        for (String name : all) {
            String copy = new String(name.toCharArray()); // not the snapshot's instance
            int index = table.indexOf(copy);
            assertThat(index).as(name).isNotNegative();
            assertThat(table.node(index).name()).isEqualTo(name);

            char[] padded = ("xx" + name + "yy").toCharArray();
            assertThat(table.indexOf(padded, 2, name.length())).as(name).isEqualTo(index);
            assertThat(table.name(index)).isEqualTo(name).isSameAs(snapshot.node(name).name());
        }
        assertThat(table.size()).isEqualTo(all.size());
    }

    @Test
    void a_name_after_any_row_is_found_as_the_lookup_finds_it_whatever_was_learned() {
        NodeTable table = snapshot.table();
        List<String> names = List.of("Aa", "BB", "AaBB", "node-10", "n-7", "nöde-😀", "", "n-500", "AaAb");
        for (int round = 0; round < 3; round++) { // what earlier rounds taught must never change an answer
            for (String name : names) {
                char[] chars = name.toCharArray();
                int found = table.indexOf(chars, 0, chars.length);
                for (int previous = -2; previous <= table.size() + 1; previous += 7) {
                    assertThat(table.indexOfNext(chars, 0, chars.length, previous)).as(name + " after " + previous)
                            .isEqualTo(found);
                }
            }
        }
    }

    @Test
    void a_request_order_once_seen_is_followed_without_hashing_the_next_time() {
        NodeTable table = snapshot.table();
        List<String> order = List.of("n-9", "n-3", "node-1", "n-250", "BB"); // not name order
        int previous = -1;
        for (String name : order) {
            previous = table.indexOfNext(name.toCharArray(), 0, name.length(), previous);
        }
        int row = table.indexOf("n-9");
        for (String name : order.subList(1, order.size())) { // learned: each one's guess is the name asked next
            int next = table.indexOf(name);
            assertThat(table.guessAfter(row)).as("the guess after " + table.name(row)).isEqualTo(next);
            assertThat(table.indexOfNext("no-such-node".toCharArray(), 0, 12, row)).isEqualTo(-1);
            assertThat(table.guessAfter(row)).as("an unknown name teaches nothing").isEqualTo(next);
            assertThat(table.indexOfNext(name.toCharArray(), 0, name.length(), row)).isEqualTo(next);
            row = next;
        }
        int first = table.indexOf("AaAa"); // untaught: the next row in name order
        assertThat(table.guessAfter(first)).isEqualTo(first + 1);
    }

    @Test
    void rows_follow_the_names_order_so_a_request_in_that_order_reads_consecutive_rows() {
        NodeTable table = snapshot.table();
        for (int row = 1; row < table.size(); row++) {
            assertThat(table.name(row - 1).compareTo(table.name(row))).as("row " + row).isNegative();
        }
    }

    @Test
    void names_it_does_not_have_are_not_found_even_with_a_colliding_hash() {
        NodeTable table = snapshot.table();
        for (String unknown : List.of("AaAb", "Ab", "node-2", "n-500", "NODE-1", "node-1 ")) {
            assertThat(table.indexOf(unknown)).as(unknown).isEqualTo(-1);
            assertThat(table.indexOf(unknown.toCharArray(), 0, unknown.length())).as(unknown).isEqualTo(-1);
        }
        assertThat(ClusterSnapshot.EMPTY.table().indexOf("node-1")).isEqualTo(-1);
    }

    @Test
    void free_amounts_are_allocatable_minus_what_bound_pods_request() {
        ClusterSnapshot withPods = ClusterSnapshot.builder()
                .node("a", Map.of(), Resources.of("cpu", 1000, "pods", 10))
                .node("b", Map.of(), Resources.of("memory", 64))
                .pod(PodInfo.builder("p").name("p").namespace("ns").nodeName("a")
                        .requests(Resources.of("cpu", 300, "example.com/gpu", 1)).build())
                .build();
        NodeTable table = withPods.table();
        int a = table.indexOf("a");
        int b = table.indexOf("b");

        assertThat(table.free(a, table.column("cpu"))).isEqualTo(700);
        assertThat(table.free(a, table.column("pods"))).isEqualTo(9);
        assertThat(table.free(a, table.column("example.com/gpu"))).isEqualTo(-1); // requested, not allocatable
        assertThat(table.free(b, table.column("cpu"))).isZero();
        assertThat(table.free(b, table.column("memory"))).isEqualTo(64);
        assertThat(table.column("nvidia.com/gpu")).isEqualTo(-1);
        assertThat(table.free(a, -1)).isZero();
    }
}
