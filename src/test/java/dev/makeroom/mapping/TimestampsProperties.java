package dev.makeroom.mapping;

import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import org.junit.jupiter.api.Test;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import dev.makeroom.support.property.LongRange;

import java.time.Instant;
import java.time.format.DateTimeParseException;

import static org.assertj.core.api.Assertions.assertThat;

/** The hand-read timestamps give what {@code Instant.parse} gives, on every string. */
class TimestampsProperties {

    @Property(tries = 2000)
    void plain_timestamps_read_as_instant_parse_reads_them(
            @ForAll @LongRange(min = -62_167_219_200L, max = 253_402_300_799L) long epochSecond) {
        String text = Instant.ofEpochSecond(epochSecond).toString(); // yyyy-MM-ddTHH:mm:ssZ for whole seconds
        assertThat(Timestamps.parse(text)).isEqualTo(Instant.ofEpochSecond(epochSecond));
    }

    @Property(tries = 3000)
    void any_near_miss_reads_as_instant_parse_reads_it(@ForAll("nearMisses") String text) {
        assertThat(Timestamps.parse(text)).isEqualTo(reference(text));
    }

    @Test
    void none_is_none() {
        assertThat(Timestamps.parse(null)).isNull();
        assertThat(Timestamps.parse("")).isNull();
    }

    /** Plain timestamps with one character changed: out-of-range fields, other separators, fractions. */
    @Provide
    Gen<String> nearMisses() {
        Gen<String> plain = Gens.longs().between(0, 4_102_444_800L)
                .map(s -> Instant.ofEpochSecond(s).toString());
        Gen<Character> anyChar = Gens.of('0', '1', '2', '3', '5', '6', '9', ':', '-', 'T', 'Z', 'z', '.', '+', ' ');
        return Gens.oneOf(
                plain.flatMap(s -> Gens.integers().between(0, s.length() - 1).flatMap(i -> anyChar
                        .map(c -> s.substring(0, i) + c + s.substring(i + 1)))),
                plain.map(s -> s.replace("Z", ".5Z")),
                plain.map(s -> s.replace("Z", "+01:00")),
                Gens.of("2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
                        "2026-12-31T23:59:60Z", "2026-00-10T00:00:00Z", "2026-13-01T00:00:00Z"));
    }

    private static Instant reference(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
