package dev.makeroom.core.model;

import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every way of reading an amount agrees with the amounts given: cpu and memory (held apart as well,
 * for speed) as any other name, by the constants, by names built anew, and after arithmetic.
 */
class ResourcesProperties {

    private static final List<String> NAMES = List.of("cpu", "memory", "pods", "ephemeral-storage", "example.com/gpu");

    @Property(tries = 300)
    void an_amount_is_read_as_given(@ForAll("amounts") Map<String, Long> amounts, @ForAll("amounts") Map<String, Long> more) {
        Resources resources = Resources.of(amounts);
        for (String name : NAMES) {
            long expected = amounts.getOrDefault(name, 0L);
            assertThat(resources.get(name)).isEqualTo(expected);
            assertThat(resources.get(new String(name.toCharArray()))).as("a name not interned").isEqualTo(expected);
            assertThat(resources.plus(Resources.of(more)).get(name)).isEqualTo(expected + more.getOrDefault(name, 0L));
        }
        assertThat(resources.get(Resources.CPU)).isEqualTo(amounts.getOrDefault("cpu", 0L));
        assertThat(resources.get(Resources.MEMORY)).isEqualTo(amounts.getOrDefault("memory", 0L));
    }

    @Provide
    Gen<Map<String, Long>> amounts() {
        return Gens.maps(Gens.of(NAMES).map(n -> new String(n.toCharArray())), // as parsed, not interned
                Gens.longs().between(-5, 1_000_000)).ofMaxSize(NAMES.size()).map(HashMap::new);
    }
}
