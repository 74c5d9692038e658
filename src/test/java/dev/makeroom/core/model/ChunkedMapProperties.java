package dev.makeroom.core.model;

import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.IntRange;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A chunked map answers as a plain map given the same edits, and an edited version leaves the one it
 * came from as it was (they share untouched chunks, which nothing writes once built).
 */
class ChunkedMapProperties {

    @Property(tries = 200)
    void versions_answer_as_plain_maps_and_leave_each_other_alone(
            @ForAll List<@IntRange(min = 0, max = 300) Integer> firstKeys,
            @ForAll List<@IntRange(min = 0, max = 300) Integer> removed,
            @ForAll List<@IntRange(min = 0, max = 300) Integer> added) {
        Map<Integer, String> expectedFirst = new HashMap<>();
        firstKeys.forEach(k -> expectedFirst.put(k, "v" + k));
        ChunkedMap<Integer, String> first = ChunkedMap.of(expectedFirst, 8);

        ChunkedMap.Editor<Integer, String> editor = first.edit();
        Map<Integer, String> expectedSecond = new HashMap<>(expectedFirst);
        removed.forEach(k -> {
            editor.remove(k);
            expectedSecond.remove(k);
        });
        added.forEach(k -> {
            editor.put(k, "w" + k);
            expectedSecond.put(k, "w" + k);
        });
        ChunkedMap<Integer, String> second = editor.build();

        assertAnswers(first, expectedFirst);
        assertAnswers(second, expectedSecond);
    }

    private static void assertAnswers(ChunkedMap<Integer, String> map, Map<Integer, String> expected) {
        assertThat(map.size()).isEqualTo(expected.size());
        for (int k = 0; k <= 300; k++) {
            assertThat(map.get(k)).isEqualTo(expected.get(k));
        }
        assertThat(map.values()).containsExactlyInAnyOrderElementsOf(expected.values());
    }

    @Test
    void an_editor_writes_nothing_once_it_has_built_its_map() {
        ChunkedMap.Editor<String, String> editor = ChunkedMap.<String, String>empty(4).edit().put("a", "1");
        ChunkedMap<String, String> built = editor.build();

        assertThatThrownBy(() -> editor.put("a", "2")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> editor.remove("a")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(editor::build).isInstanceOf(IllegalStateException.class);
        assertThat(built.get("a")).isEqualTo("1");
    }

    /**
     * An edit copies one chunk of about the same size however large the map: the chunks double as it
     * grows past {@link ChunkedMap#MOST_PER_CHUNK} entries each, and every entry is still found.
     */
    @Test
    void the_chunks_grow_with_the_map_so_an_edit_copies_a_bounded_chunk() {
        ChunkedMap<Integer, Integer> map = ChunkedMap.empty(4);
        for (int batch = 0; batch < 100; batch++) {
            ChunkedMap.Editor<Integer, Integer> editor = map.edit();
            for (int k = batch * 1_000; k < (batch + 1) * 1_000; k++) {
                editor.put(k, k);
            }
            map = editor.build();
            assertThat(map.size() / map.chunkCount()).as("entries a chunk at " + map.size())
                    .isLessThanOrEqualTo(ChunkedMap.MOST_PER_CHUNK);
        }
        assertThat(map.chunkCount()).isGreaterThan(512);
        for (int k = 0; k < 100_000; k++) {
            assertThat(map.get(k)).isEqualTo(k);
        }
        assertThat(ChunkedMap.of(Map.of(1, 1), 64).chunkCount()).as("the fewest chunks asked for").isEqualTo(64);
    }
}
