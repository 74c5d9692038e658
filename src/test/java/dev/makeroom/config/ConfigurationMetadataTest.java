package dev.makeroom.config;

import dev.makeroom.support.Docs;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metadata IDEs read (generated from {@link MakeroomProperties}) names every makeroom.* property
 * with a description, and docs/configuration.md lists exactly those properties.
 */
class ConfigurationMetadataTest {

    @Test
    void every_property_is_described_and_on_the_configuration_page() throws IOException {
        JsonNode metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("the configuration processor's metadata is in the build").isNotNull();
            metadata = Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        TreeSet<String> properties = new TreeSet<>();
        for (JsonNode property : metadata.get("properties")) {
            String name = property.get("name").asString();
            if (name.startsWith("makeroom.")) {
                properties.add(name);
                assertThat(property.path("description").asString("")).as("the description of " + name).isNotBlank();
            }
        }
        String table = Docs.page("configuration");
        TreeSet<String> documented = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| `(makeroom\\.[a-z.-]+)` \\|").matcher(table);
        while (row.find()) {
            documented.add(row.group(1));
        }
        assertThat(properties).hasSizeGreaterThan(20).isEqualTo(documented);
    }
}
