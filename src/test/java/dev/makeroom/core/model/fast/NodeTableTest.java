package dev.makeroom.core.model.fast;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.Resources;
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
    void any_guess_of_the_row_finds_what_the_lookup_finds() {
        NodeTable table = snapshot.table();
        for (String name : List.of("Aa", "BB", "AaBB", "node-10", "n-7", "nöde-😀", "", "n-500", "AaAb")) {
            char[] chars = name.toCharArray();
            int found = table.indexOf(chars, 0, chars.length);
            for (int guess = -2; guess <= table.size() + 1; guess++) {
                assertThat(table.indexOf(chars, 0, chars.length, guess)).as(name + " guessing " + guess).isEqualTo(found);
            }
        }
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
