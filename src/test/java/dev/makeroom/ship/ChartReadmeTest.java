package dev.makeroom.ship;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The chart's README lists every value of values.yaml, with its default and what it does, and nothing else. */
class ChartReadmeTest {

    private static final Path CHART = Path.of("helm/makeroom");
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([^`]+)` \\| (.*) \\| (.*) \\|$");

    @Test
    void every_value_has_a_row_with_its_default_and_what_it_does() throws IOException {
        Map<String, Object> leaves = new TreeMap<>();
        leaves(new Yaml().load(Files.readString(CHART.resolve("values.yaml"))), "", leaves);
        Map<String, String[]> rows = new TreeMap<>();
        Matcher row = ROW.matcher(Files.readString(CHART.resolve("README.md")));
        while (row.find()) {
            rows.put(row.group(1), new String[] {row.group(2), row.group(3)});
        }
        assertThat(new TreeSet<>(rows.keySet())).as("the README's rows are the values' keys")
                .isEqualTo(new TreeSet<>(leaves.keySet()));
        rows.forEach((key, cells) -> {
            assertThat(cells[1]).as("what %s does", key).isNotBlank();
            Object value = leaves.get(key);
            if (value instanceof String s && !s.isEmpty() && !s.contains("\n")) {
                assertThat(cells[0]).as("the default of %s", key).isEqualTo("`" + s + "`");
            } else if (value instanceof Boolean || value instanceof Number) {
                assertThat(cells[0]).as("the default of %s", key).isEqualTo("`" + value + "`");
            }
        });
    }

    @Test
    void every_value_of_values_yaml_is_commented() throws IOException {
        java.util.List<String> lines = Files.readAllLines(CHART.resolve("values.yaml"));
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.isEmpty() && Character.isLetter(line.charAt(0))) { // a top-level value
                assertThat(lines.get(i - 1).startsWith("#") || line.contains(" #"))
                        .as("a comment above or beside line %d: %s", i + 1, line).isTrue();
            }
        }
    }

    /** The values' leaves by dotted path; an empty map or any list is a leaf. */
    @SuppressWarnings("unchecked")
    private static void leaves(Map<String, Object> map, String prefix, Map<String, Object> out) {
        map.forEach((key, value) -> {
            String path = prefix.isEmpty() ? key : prefix + "." + key;
            if (value instanceof Map<?, ?> child && !child.isEmpty()) {
                leaves((Map<String, Object>) child, path, out);
            } else {
                out.put(path, value);
            }
        });
    }
}
