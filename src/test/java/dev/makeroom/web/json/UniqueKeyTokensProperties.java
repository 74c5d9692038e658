package dev.makeroom.web.json;

import dev.makeroom.core.model.NodeTable;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import dev.makeroom.support.property.Tally;
import org.junit.jupiter.api.Test;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The preempt reader's own check for duplicate keys ({@link UniqueKeyTokens}) refuses exactly what
 * Jackson's strict check refuses, wherever in the body the object is: in the pod, in a victim pod
 * it only skips, in a field it does not know.
 */
class UniqueKeyTokensProperties {

    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private final WireJson json = new WireJson();

    enum Place {
        POD("{\"NodeNameToMetaVictims\":{},\"Pod\":%s}"),
        WHOLE_VICTIM("{\"NodeNameToVictims\":{\"n1\":{\"Pods\":[{\"metadata\":{\"uid\":\"u\"},\"spec\":%s}]}}}"),
        META_VICTIM("{\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[{\"UID\":\"u\",\"More\":%s}]}}}"),
        UNKNOWN_FIELD("{\"Extra\":%s,\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[{\"UID\":\"u\"}],\"Other\":%<s}}}");

        private final String body;

        Place(String body) {
            this.body = body;
        }

        String around(String value) {
            return body.formatted(value);
        }
    }

    @Provide
    Gen<String> values() {
        Gen<String> scalars = Gens.of("1", "-2.50", "12345678901234567890", "0.1e-7", "true", "null",
                "\"s\"", "\"\\u00e9\\\"\"");
        // a few names (a key often repeats) or many (rarely)
        Gen<String> keys = Gens.oneOf(Gens.of("a", "b", "A"),
                Gens.strings().withCharRange('a', 'z').ofLength(2));
        Gen<List<String>> narrow = keys.list().ofMaxSize(4);
        // around the linear check's 16 keys: all different, or one repeated last (found past the 16th
        // only when there are more); of scalars, to keep bodies small
        Gen<List<String>> unique = keys.list().ofMinSize(14).ofMaxSize(20).uniqueElements();
        Gen<List<String>> wide = Gens.oneOf(unique, unique.flatMap(names -> Gens.of(names)
                .map(again -> Stream.concat(names.stream(), Stream.of(again)).toList())));
        return Gens.recursive(() -> scalars, inner -> Gens.oneOf(
                inner.list().ofMaxSize(3).map(items -> "[" + String.join(",", items) + "]"),
                objects(narrow, inner), objects(wide, scalars)), 0, 4);
    }

    private static Gen<String> objects(Gen<List<String>> keys, Gen<String> values) {
        return keys.flatMap(names -> values.list().ofSize(names.size()).map(items -> object(names, items)));
    }

    private static String object(List<String> names, List<String> values) {
        StringBuilder object = new StringBuilder("{");
        for (int i = 0; i < names.size(); i++) {
            object.append(i == 0 ? "" : ",").append('"').append(names.get(i)).append("\":").append(values.get(i));
        }
        return object.append('}').toString();
    }

    @Property(tries = 600)
    void a_key_given_twice_in_one_object_is_refused_where_jackson_refuses_it(@ForAll("values") String value,
                                                                             @ForAll Place place) {
        String body = place.around(value);
        boolean refused = strictlyRefused(body);
        Tally.collect(refused ? "refused" : "read");
        // about a fifth are refused (1.6 points' spread over 600 tries); the bounds only catch a generator
        // that stopped making one kind, far enough off that a run's chance cannot cross them
        Tally.coverage(c -> {
            c.check("refused").percentage(p -> p > 8);
            c.check("read").percentage(p -> p > 50);
        });

        if (refused) {
            assertThatThrownBy(() -> read(body)).isInstanceOf(BadRequestException.class)
                    .hasMessageStartingWith("malformed JSON: Duplicate Object property");
        } else {
            PreemptArgsReader.PreemptArgs args = read(body);
            assertThat(args.candidates()).isNotNull();
            if (place == Place.POD && value.startsWith("{")) {
                assertThat(STRICT.readTree(args.pod().text())).isEqualTo(STRICT.readTree(value));
            }
        }
    }

    @Test
    void a_key_given_twice_where_the_reader_reads_values_is_refused() {
        for (String body : List.of(
                "{\"Pod\":{},\"Pod\":{}}",
                "{\"NodeNameToMetaVictims\":{\"n1\":null,\"n1\":{}}}",
                "{\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[],\"Pods\":[]}}}",
                "{\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[{\"UID\":\"a\",\"UID\":\"b\"}]}}}",
                "{\"NodeNameToVictims\":{\"n1\":{\"Pods\":[{\"metadata\":{\"uid\":\"a\",\"uid\":\"b\"}}]}}}")) {
            assertThat(strictlyRefused(body)).as(body).isTrue();
            assertThatThrownBy(() -> read(body)).as(body).isInstanceOf(BadRequestException.class)
                    .hasMessageStartingWith("malformed JSON: Duplicate Object property");
        }
        // keys differing in case are two keys to Jackson's check, as to this one (the reader takes the last)
        assertThat(read("{\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[{\"UID\":\"a\",\"uid\":\"b\"}]}}}").candidates()
                .get(0).hintedVictimUids()).containsExactly("b");
    }

    private static boolean strictlyRefused(String body) {
        try {
            STRICT.readTree(body);
            return false;
        } catch (StreamReadException e) {
            assertThat(e.getOriginalMessage()).startsWith("Duplicate Object property");
            return true;
        }
    }

    private PreemptArgsReader.PreemptArgs read(String body) {
        return json.readPreemptArgs(body.getBytes(StandardCharsets.UTF_8), NodeTable.of(List.of()));
    }
}
