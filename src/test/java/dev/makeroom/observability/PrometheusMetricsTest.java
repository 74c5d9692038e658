package dev.makeroom.observability;

import dev.makeroom.support.DemoScrape;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Promtool;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * After a few real calls on the demo cluster, makeroom's metrics carry real values and the whole
 * scrape, Spring's and the JVM's series included, passes {@code promtool check metrics} with no finding.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PrometheusMetricsTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    private String scrapeAfterCalls() throws IOException {
        assertThat(new ExtenderClient(port).post("/scheduler/filter", "{").statusCode()).isEqualTo(400);
        return DemoScrape.afterOneCallPerVerb(port, managementPort);
    }

    @Test
    void every_makeroom_metric_has_real_values() throws IOException {
        String metrics = scrapeAfterCalls();

        // the context is shared by this class's tests, so counts are at least what this test caused
        String positive = " [1-9][0-9]*(\\.0)?$";
        assertThat(metrics)
                .containsPattern("(?m)^makeroom_extender_request_seconds_count\\{outcome=\"ok\",verb=\"filter\"}" + positive)
                .containsPattern("(?m)^makeroom_extender_request_seconds_count\\{outcome=\"rejected\",verb=\"filter\"}" + positive)
                .containsPattern("(?m)^makeroom_extender_request_seconds_bucket\\{outcome=\"ok\",verb=\"preempt\",le=\"1.0\"}" + positive)
                // a p99 between 5 and 25 ms is readable to a millisecond or two
                .containsPattern("(?m)^makeroom_extender_request_seconds_bucket\\{outcome=\"ok\",verb=\"preempt\",le=\"0.006\"}")
                .containsPattern("(?m)^makeroom_extender_request_seconds_bucket\\{outcome=\"ok\",verb=\"preempt\",le=\"0.015\"}")
                .containsPattern("(?m)^makeroom_extender_request_seconds_bucket\\{outcome=\"ok\",verb=\"preempt\",le=\"0.02\"}")
                .containsPattern("(?m)^makeroom_preemption_decisions_total\\{result=\"preempt\"}" + positive)
                .containsPattern("(?m)^makeroom_preemption_victims_count" + positive)
                .containsPattern("(?m)^makeroom_preemption_node_searches_total\\{result=\"proven_optimal\"}" + positive)
                .containsPattern("(?m)^makeroom_preemption_node_searches_total\\{result=\"not_enough_preemptible_resources\"}" + positive)
                .containsPattern("(?m)^makeroom_preemption_node_searches_total\\{result=\"dominated\"}" + positive)
                .containsPattern("(?m)^makeroom_preemption_decision_seconds_count" + positive)
                .containsPattern("(?m)^makeroom_preemption_compared_total" + positive)
                .containsPattern("(?m)^makeroom_preemption_victims_saved_total [0-9]")
                .containsPattern("(?m)^makeroom_preemption_victims_added_total [0-9]")
                .containsPattern("(?m)^makeroom_preemption_victim_priority_saved_total [0-9]")
                .contains("makeroom_cluster_objects{kind=\"node\"} 4.0")
                .containsPattern("(?m)^makeroom_build_info\\{java=\"" + System.getProperty("java.version").replace(".", "\\.")
                        + "\",version=\"0\\.1\\.0-SNAPSHOT\"} 1(\\.0)?$")
                .contains("makeroom_cluster_view_ready 1.0");
        // every decision on the demo answers exactly one victim
        assertThat(value(metrics, "makeroom_preemption_victims_sum")).isEqualTo(value(metrics, "makeroom_preemption_victims_count"));
    }

    /**
     * The pods the verbs read are counted by where they came from, and still after a collection: the
     * meters hold only weak references to what they read (a series backed by a lambda nothing else held
     * read 0 once collected).
     */
    @Test
    void the_pods_read_are_counted_by_source_after_a_collection() throws IOException {
        String before = scrapeAfterCalls();
        System.gc();
        String metrics = DemoScrape.afterOneCallPerVerb(port, managementPort);
        double read = metrics.lines().filter(l -> l.startsWith("makeroom_extender_pod_reads_total{"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        double readBefore = before.lines().filter(l -> l.startsWith("makeroom_extender_pod_reads_total{"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        assertThat(metrics).contains("makeroom_extender_pod_reads_total{source=\"translated\"}");
        assertThat(read - readBefore).as("three calls, each reading its pod").isGreaterThanOrEqualTo(3);
    }

    private static double value(String metrics, String name) {
        return metrics.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(l.substring(name.length() + 1)))
                .findFirst().orElseThrow();
    }

    /**
     * Every query of the dashboard is PromQL that promtool accepts, once Grafana's variables are
     * given values as Grafana gives them (each as a recording rule: promtool parses rule expressions).
     */
    @Test
    void the_grafana_dashboards_queries_parse() throws Exception {
        com.fasterxml.jackson.databind.JsonNode dashboard = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(Path.of("helm/makeroom/dashboards/makeroom.json").toFile());
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        int queries = 0;
        for (com.fasterxml.jackson.databind.JsonNode panel : dashboard.get("panels")) {
            for (com.fasterxml.jackson.databind.JsonNode target : panel.path("targets")) {
                String expr = target.get("expr").asText().replace("$job", "makeroom-management")
                        .replace("$namespace", "makeroom-system").replace("$pod", ".*")
                        .replace("$__range", "6h").replace("$__rate_interval", "1m");
                rules.append("      - record: dashboard:query_").append(++queries).append("\n        expr: '")
                        .append(expr.replace("'", "''")).append("'\n");
            }
        }
        assertThat(queries).isGreaterThan(20);
        assertThat(Promtool.checkRules(rules.toString())).contains("SUCCESS");
    }

    @Test
    void the_grafana_dashboard_only_queries_metrics_makeroom_exposes() throws IOException {
        String metrics = scrapeAfterCalls();
        String dashboard = Files.readString(Path.of("helm/makeroom/dashboards/makeroom.json"));
        List<String> used = DemoScrape.assertExposesEveryMetricIn(dashboard, metrics);
        assertThat(used).filteredOn(name -> !name.startsWith("makeroom_informer_")).hasSizeGreaterThan(5);
    }

    /** Nothing at all, Spring's and the JVM's series included: the ones it flagged are turned off. */
    @Test
    void promtool_finds_nothing_wrong_with_any_series_makeroom_serves() throws Exception {
        String scrape = scrapeAfterCalls();
        assertThat(Promtool.findings(scrape)).isEmpty();
        assertThat(scrape).doesNotContain("tomcat_sessions_").doesNotContain("http_server_requests_")
                .contains("jvm_memory_used_bytes").contains("process_cpu_usage");
    }
}
