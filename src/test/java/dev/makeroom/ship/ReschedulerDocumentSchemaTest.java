package dev.makeroom.ship;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.makeroom.core.rounds.PolicyReader;
import dev.makeroom.core.rounds.planner.ReschedulePlanner;
import dev.makeroom.rescheduler.InvalidReschedulerConfigException;
import dev.makeroom.rescheduler.ReschedulerConfigParser;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The chart's schema for the rescheduler's policies document (rescheduler.config as a map) and
 * makeroom's parser are kept in step: at every level the schema allows exactly the keys the parser
 * knows; the bundled documents pass both and render into the ConfigMap as makeroom reads them; a
 * misspelt key or a value out of range is turned away by both.
 */
class ReschedulerDocumentSchemaTest {

    private static JsonNode documentSchema() throws IOException {
        JsonNode schema = new ObjectMapper().readTree(Chart.DIR.resolve("values.schema.json").toFile());
        for (JsonNode choice : schema.at("/properties/rescheduler/properties/config/oneOf")) {
            if ("object".equals(choice.path("type").asText())) {
                return choice;
            }
        }
        throw new AssertionError("rescheduler.config takes no map");
    }

    private static Set<String> parserKeys(String field) throws ReflectiveOperationException {
        return DocumentSchemas.parserKeys(ReschedulerConfigParser.class, field);
    }

    @Test
    void at_every_level_the_schema_allows_exactly_the_keys_the_parser_knows() throws Exception {
        JsonNode schema = documentSchema();
        Map<String, String> levels = Map.ofEntries(Map.entry("", "TOP"),
                Map.entry("/properties/limits", "LIMITS"), Map.entry("/properties/scope", "SCOPE"),
                Map.entry("/properties/scope/properties/namespaces", "NAMESPACES"),
                Map.entry("/properties/scope/properties/podSelector", "SELECTOR"),
                Map.entry("/properties/scope/properties/nodeSelector", "SELECTOR"),
                Map.entry("/properties/scope/properties/podSelector/properties/matchExpressions/items", "EXPRESSION"));
        for (Map.Entry<String, String> level : levels.entrySet()) {
            assertThat(DocumentSchemas.keysAt(schema.at(level.getKey()))).as("the keys at %s", level.getKey().isEmpty() ? "the top"
                    : level.getKey()).isEqualTo(parserKeys(level.getValue()));
        }
        // each registered policy's section, as the policy reads it
        Set<String> sections = new TreeSet<>();
        for (PolicyReader<?> policy : ReschedulePlanner.policies()) {
            sections.add(policy.section());
            String at = "/properties/policies/properties/" + policy.section();
            assertThat(DocumentSchemas.keysAt(schema.at(at))).as("the keys at %s", at).isEqualTo(new TreeSet<>(policy.keys()));
        }
        assertThat(DocumentSchemas.keysAt(schema.at("/properties/policies"))).as("the policies").isEqualTo(sections);
    }

    @Test
    void the_bundled_documents_pass_both_and_reach_the_config_map_as_makeroom_reads_them() {
        for (String example : List.of("examples/rescheduler.yaml", "examples/policies.yaml", "examples/consolidate.yaml")) {
            String document = Chart.read(example);
            Map<String, Object> asMap = new Yaml().load(document);
            String shipped = DocumentSchemas.shipped(Map.of("rescheduler", Map.of("enabled", true, "create", true,
                    "config", asMap)), "rescheduler.yaml");
            assertThat(ReschedulerConfigParser.parse(shipped)).as(example).isEqualTo(ReschedulerConfigParser.parse(document));
        }
    }

    @Test
    void a_misspelt_key_or_a_value_out_of_range_is_turned_away_by_both() {
        List<String> wrong = List.of(
                "policies: {rebalanse: {enabled: true}}",
                "policies: {consolidate: {enabled: true, below: {cpu: 20}, ceiling: {cpu: 180}}}",
                "policies: {defragment: {maxMoves: 20}}",
                "limits: {perRound: -1}",
                "scope: {podSelector: {matchExpressions: [{key: a, operator: Equals, values: [b]}]}}",
                "policies: {consolidate: {enabled: true, below: {cpuu: 20}, ceiling: {cpu: 80}}}",
                "aggressiveness: reckless",
                "policies: {spread: {enabled: sure}}");
        for (String document : wrong) {
            assertThatThrownBy(() -> ReschedulerConfigParser.parse(document)).as(document)
                    .isInstanceOf(InvalidReschedulerConfigException.class);
            Map<String, Object> asMap = new Yaml().load(document);
            assertThatThrownBy(() -> Chart.templateWithValuesFile(new Yaml().dump(Map.of("rescheduler",
                    Map.of("enabled", true, "create", true, "config", asMap))))).as(document)
                    .hasMessageContaining("rescheduler");
        }
    }
}
