package dev.makeroom.mapping;

import io.fabric8.kubernetes.api.model.Quantity;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import org.junit.jupiter.api.Test;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Quantities read without BigDecimal come out as the decimal path reads them, errors included. */
class QuantitiesProperties {

    @Property(tries = 3000)
    void every_quantity_reads_as_the_decimal_path_reads_it(@ForAll("resources") String resource,
                                                           @ForAll("quantities") String text) {
        Quantity quantity = new Quantity(text);
        Object expected = outcome(() -> Quantities.viaDecimal(resource, quantity));
        assertThat(outcome(() -> Quantities.toLong(resource, quantity))).isEqualTo(expected);
    }

    @Test
    void thousandths_round_up() {
        assertThat(Quantities.toLong("memory", new Quantity("1001m"))).isEqualTo(2);
        assertThat(Quantities.toLong("cpu", new Quantity("250m"))).isEqualTo(250);
        assertThat(Quantities.toLong("cpu", new Quantity("2"))).isEqualTo(2000);
        assertThat(Quantities.toLong("memory", new Quantity("128Mi"))).isEqualTo(128L << 20);
        assertThatThrownBy(() -> Quantities.toLong("memory", new Quantity("99999999999999999Pi")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("memory quantity");
    }

    @Provide
    Gen<String> resources() {
        return Gens.of("cpu", "memory", "nvidia.com/gpu", "ephemeral-storage");
    }

    @Provide
    Gen<String> quantities() {
        Gen<String> digits = Gens.oneOf(Gens.longs().between(0, 5000).map(String::valueOf),
                Gens.longs().between(0, Long.MAX_VALUE).map(String::valueOf),
                Gens.strings().numeric().ofMinLength(1).ofMaxLength(20));
        Gen<String> suffix = Gens.of("", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi",
                "Ei", "e3", "E2", "u", "n");
        Gen<String> plain = Gens.combine(digits, suffix).as((d, s) -> d + s);
        return Gens.oneOf(plain, plain.map(s -> "0." + s), plain.map(s -> "-" + s), plain.map(s -> "+" + s),
                plain.map(s -> s.replaceFirst("^(\\d)", "$1.5")));
    }

    /** The value, or the error's type and message. */
    private static Object outcome(java.util.function.LongSupplier read) {
        try {
            return read.getAsLong();
        } catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }
}
