package dev.makeroom.ship;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.makeroom.core.queue.InvalidQueueConfigException;
import dev.makeroom.queueconfig.QueueConfigParser;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The chart's schema for the queue document (queues.config as a map) and makeroom's parser in step:
 * the same keys at every level, the bundled document passes both and reaches the ConfigMap as
 * makeroom reads it, and wrong documents are turned away by both.
 */
class QueueDocumentSchemaTest {

    private static JsonNode schema() throws IOException {
        return new ObjectMapper().readTree(Chart.DIR.resolve("values.schema.json").toFile());
    }

    private static Set<String> parserKeys(String field) throws ReflectiveOperationException {
        return DocumentSchemas.parserKeys(QueueConfigParser.class, field);
    }

    private static Set<String> keys(JsonNode node) {
        return DocumentSchemas.keysAt(node);
    }

    @Test
    void the_schema_allows_exactly_the_keys_the_parser_knows() throws Exception {
        JsonNode schema = schema();
        JsonNode document = null;
        for (JsonNode choice : schema.at("/properties/queues/properties/config/oneOf")) {
            document = "object".equals(choice.path("type").asText()) ? choice : document;
        }
        assertThat(document).as("queues.config takes a map").isNotNull();
        assertThat(keys(document)).isEqualTo(parserKeys("TOP_KEYS"));
        assertThat(keys(schema.at("/$defs/queue"))).isEqualTo(parserKeys("QUEUE_KEYS"));
        assertThat(keys(schema.at("/$defs/queue/properties/resources"))).isEqualTo(parserKeys("RESOURCE_KEYS"));
        assertThat(keys(document.at("/properties/partitions/items"))).isEqualTo(parserKeys("PARTITION_KEYS"));
    }

    @Test
    void the_bundled_document_passes_both_and_reaches_the_config_map_as_makeroom_reads_it() {
        String document = Chart.read("examples/queues.yaml");
        Map<String, Object> asMap = new Yaml().load(document);
        String shipped = DocumentSchemas.shipped(Map.of("queues", Map.of("create", true, "config", asMap)), "queues.yaml");
        assertThat(QueueConfigParser.parse(shipped, w -> { }).queues().size())
                .isEqualTo(QueueConfigParser.parse(document, w -> { }).queues().size());
        assertThat(new Yaml().<Object>load(shipped)).isEqualTo(asMap);
    }

    @Test
    void a_misspelt_key_or_a_wrong_value_is_turned_away_by_both() {
        List<String> wrong = List.of(
                "queues: [{name: root, resources: {guaranted: {cpu: 4}}}]",
                "queues: [{name: root, resources: {guaranteed: {cpu: four}}}]",
                "queues: [{name: root, queues: [{name: shop, resource: {max: {cpu: 2}}}]}]",
                "queues: [{name: root, properties: {preemption.policy: sometimes}}]",
                "queus: [{name: root}]",
                "queues: [{resources: {}}]");
        for (String document : wrong) {
            assertThatThrownBy(() -> QueueConfigParser.parse(document, w -> { })).as(document)
                    .isInstanceOf(InvalidQueueConfigException.class);
            Map<String, Object> asMap = new Yaml().load(document);
            assertThatThrownBy(() -> Chart.templateWithValuesFile(new Yaml().dump(Map.of("queues",
                    Map.of("create", true, "config", asMap))))).as(document).hasMessageContaining("queues");
        }
    }
}
