package dev.makeroom.web.json;

import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import org.junit.jupiter.api.Test;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The hand-written answer strings read back, with a real JSON parser, as exactly what was written. */
class JsonOutProperties {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    @Property(tries = 1000)
    void every_string_reads_back_unchanged(@ForAll("anyText") String text) {
        byte[] written = new JsonOut(4).ascii("[").string(text).ascii(",").number(-42).ascii("]").answer().toByteArray();

        var parsed = MAPPER.readTree(written);
        assertThat(parsed.get(0).asString()).isEqualTo(text);
        assertThat(parsed.get(1).asLong()).isEqualTo(-42);
    }

    /** Every char: plain ASCII runs broken by others, ASCII with quotes and controls, two- and three-byte ones, pairs and lone surrogates. */
    @Provide
    Gen<String> anyText() {
        return Gens.oneOf(
                Gens.strings().all().ofMaxLength(40),
                Gens.strings().withChars("\"\\/\n\r\t\b\f\u0000\u001fé€😀").ofMaxLength(20),
                Gens.strings().withChars("node-1.\"\\\u007f\u0080é😀").ofMaxLength(20), // plain runs, then not
                Gens.strings().withCharRange('\ud800', '\udfff').ofMaxLength(4));
    }

    @Test
    void text_is_utf_8_and_only_what_json_requires_is_escaped() {
        byte[] written = new JsonOut(1).string("node-é \"a\"\\ 😀\n").answer().toByteArray();

        assertThat(new String(written, StandardCharsets.UTF_8)).isEqualTo("\"node-é \\\"a\\\"\\\\ 😀\\n\"");
    }

    @Test
    void a_lone_surrogate_is_escaped_rather_than_mangled() {
        assertThat(new String(new JsonOut(1).string("x\ud800").answer().toByteArray(), StandardCharsets.US_ASCII))
                .isEqualTo("\"x\\ud800\"");
    }
}
