package dev.makeroom.ship;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.makeroom.ship.Chart.read;
import static dev.makeroom.ship.Chart.yaml;
import static org.assertj.core.api.Assertions.assertThat;

/** The changelog's compatibility table says what the chart says. */
class ChangelogTest {

    @Test
    void the_compatibility_table_matches_the_chart() {
        String changelog = read("CHANGELOG.md");
        Map<String, Object> chart = yaml(read("helm/makeroom/Chart.yaml"));
        Map<String, Object> values = yaml(read("helm/makeroom/values.yaml"));
        assertThat(changelog).contains("## Unreleased (" + chart.get("appVersion") + ")");
        assertThat(changelog).contains("`kubeVersion: \"" + chart.get("kubeVersion") + "\"`");
        @SuppressWarnings("unchecked")
        Map<String, Object> image = (Map<String, Object>) ((Map<String, Object>) values.get("scheduler")).get("image");
        assertThat(changelog).contains("`" + image.get("repository") + ":" + image.get("tag") + "`");
    }
}
