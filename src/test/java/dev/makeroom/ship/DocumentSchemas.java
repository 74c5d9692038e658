package dev.makeroom.ship;

import com.fasterxml.jackson.databind.JsonNode;
import org.yaml.snakeyaml.Yaml;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** What the document-schema tests share: the keys a level allows, a parser's key set, a document rendered into its ConfigMap. */
final class DocumentSchemas {

    private DocumentSchemas() {
    }

    /** The keys a schema object allows, having asserted it allows no others. */
    static Set<String> keysAt(JsonNode node) {
        assertThat(node.path("additionalProperties").asBoolean(true)).as("%s allows no other keys", node).isFalse();
        Set<String> keys = new TreeSet<>();
        node.path("properties").fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    /** A parser's static set of the keys it knows at one level. */
    @SuppressWarnings("unchecked")
    static Set<String> parserKeys(Class<?> parser, String field) throws ReflectiveOperationException {
        Field keys = parser.getDeclaredField(field);
        keys.setAccessible(true);
        return new TreeSet<>((Set<String>) keys.get(null));
    }

    /** The chart rendered with {@code values}; the text under {@code key} in the ConfigMap that carries it. */
    static String shipped(Map<String, Object> values, String key) {
        String rendered = Chart.templateWithValuesFile(new Yaml().dump(values));
        String from = rendered.substring(rendered.indexOf(key + ": |"));
        int end = from.indexOf("\n---");
        Map<String, Object> data = new Yaml().load(end > 0 ? from.substring(0, end) : from);
        return (String) data.get(key);
    }
}
