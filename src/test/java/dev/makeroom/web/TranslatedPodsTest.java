package dev.makeroom.web;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PriorityClassInfo;
import dev.makeroom.web.json.BadRequestException;
import dev.makeroom.web.json.RawJson;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TranslatedPodsTest {

    private final TranslatedPods translated = new TranslatedPods();
    private final List<String> translations = new ArrayList<>();

    private PodInfo translate(String json, Function<String, Integer> classValues) {
        translations.add(json);
        Integer value = json.contains("class") ? classValues.apply("class") : null;
        return PodInfo.builder(json).priority(value == null ? 0 : value).build();
    }

    @Test
    void the_same_text_is_translated_once() {
        PodInfo first = translated.of("{\"a\":1}", name -> 5, this::translate);
        PodInfo again = translated.of("{\"a\":1}", name -> 5, this::translate);
        translated.of("{\"a\":2}", name -> 5, this::translate);

        assertThat(again).isSameAs(first);
        assertThat(translations).containsExactly("{\"a\":1}", "{\"a\":2}");
    }

    @Test
    void a_pod_whose_priority_came_from_a_class_is_read_again_against_each_lookup() {
        PodInfo before = translated.of("{\"class\":1}", name -> 5, this::translate);
        PodInfo after = translated.of("{\"class\":1}", name -> 50, this::translate);

        assertThat(before.priority()).isEqualTo(5);
        assertThat(after.priority()).isEqualTo(50);
        assertThat(translations).hasSize(2);
    }

    @Test
    void a_failed_translation_is_not_kept() {
        Function<String, Integer> none = name -> null;
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> translated.of("bad", none, (json, classes) -> {
                translations.add(json);
                throw new BadRequestException("bad pod");
            })).hasMessage("bad pod");
        }
        assertThat(translations).hasSize(2);
    }

    /** Through the real translator: a class's value is read from the snapshot asked with, not the first one. */
    @Test
    void the_translator_reads_a_class_priority_from_each_snapshot() {
        PodTranslator pods = new PodTranslator();
        byte[] json = "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"priorityClassName\":\"batch\"}}"
                .getBytes(StandardCharsets.UTF_8);
        RawJson pod = new RawJson(json, 0, json.length, true);
        ClusterSnapshot low = ClusterSnapshot.builder().priorityClass(new PriorityClassInfo("batch", 10, false)).build();
        ClusterSnapshot high = ClusterSnapshot.builder().priorityClass(new PriorityClassInfo("batch", 900, false)).build();

        assertThat(pods.toCore(pod, low).priority()).isEqualTo(10);
        assertThat(pods.toCore(pod, high).priority()).isEqualTo(900);
    }

    /** A kept pod is found again by its bytes, within a larger body, before any String is made; a class's is not. */
    @Test
    void a_kept_pod_is_found_by_its_bytes_and_a_class_priority_pod_is_not() {
        byte[] body = "xx{\"a\":1}yy{\"class\":1}".getBytes(StandardCharsets.UTF_8);
        assertThat(translated.recent(body, 2, 9)).isNull();

        PodInfo kept = translated.of(body, 2, 9, name -> 5, this::translate);
        translated.of(body, 11, body.length, name -> 5, this::translate);

        assertThat(translated.recent(body, 2, 9)).isSameAs(kept);
        assertThat(translated.recent("{\"a\":1}".getBytes(StandardCharsets.UTF_8), 0, 7)).isSameAs(kept);
        assertThat(translated.recent(body, 11, body.length)).isNull();
        assertThat(translated.recent("{\"a\":2}".getBytes(StandardCharsets.UTF_8), 0, 7)).isNull();
    }

    /** A pod the view holds at version 42, and the scheduler's JSON of it at {@code version}. */
    private static final PodInfo SEEN = PodInfo.builder("u-1").name("p").namespace("d").resourceVersion(42).priority(7).build();

    private static RawJson seenAt(int version) {
        return json("{\"metadata\":{\"name\":\"p\",\"namespace\":\"d\",\"uid\":\"u-1\",\"resourceVersion\":\""
                + version + "\"}}");
    }

    private static RawJson json(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new RawJson(bytes, 0, bytes.length, true);
    }

    /** The scheduler's pod at the version the view holds is the view's own pod: no translation. */
    @Test
    void the_view_s_pod_at_the_same_version_is_the_answer() {
        PodTranslator pods = new PodTranslator();
        ClusterSnapshot snapshot = ClusterSnapshot.builder().pod(SEEN).build();

        assertThat(pods.toCore(seenAt(42), snapshot)).isSameAs(SEEN);
        assertThat(pods.toCore(seenAt(43), snapshot)).isNotSameAs(SEEN)
                .satisfies(p -> assertThat(p.resourceVersion()).isEqualTo(43));
    }

    /** Each read is counted by where the pod came from: what makeroom_extender_pod_reads_total shows. */
    @Test
    void every_read_is_counted_by_where_the_pod_came_from() {
        PodTranslator pods = new PodTranslator();
        ClusterSnapshot snapshot = ClusterSnapshot.builder().pod(SEEN).build();
        RawJson unseen = json("{\"metadata\":{\"name\":\"q\",\"namespace\":\"d\",\"uid\":\"u-2\"},\"spec\":{\"priority\":3}}");

        pods.toCore(seenAt(42), snapshot);
        pods.toCore(unseen, snapshot);
        pods.toCore(unseen, snapshot);
        pods.toCore(unseen, snapshot);

        assertThat(pods.reads(PodTranslator.Source.VIEW)).isEqualTo(1);
        assertThat(pods.reads(PodTranslator.Source.TRANSLATED)).isEqualTo(1);
        assertThat(pods.reads(PodTranslator.Source.RECENT)).as("the same bytes again").isEqualTo(2);
        assertThat(pods.reads(PodTranslator.Source.KEPT)).isZero();
    }
}
