package dev.makeroom.ship;

import dev.makeroom.support.DemoScrape;
import dev.makeroom.support.Promtool;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.yaml.snakeyaml.Yaml;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chart's PrometheusRule: promtool accepts its rules, every alert the issue asks for is there,
 * and every makeroom metric it queries is one makeroom really exposes, under the job name the
 * ServiceMonitor gives it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AlertRulesTest {

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Test
    void the_alerts_pass_promtool_and_query_only_what_makeroom_exposes() throws Exception {
        Rendering rendering = Chart.render(Map.of("prometheusRule.enabled", true, "serviceMonitor.enabled", true));
        GenericKubernetesResource rule = (GenericKubernetesResource) rendering.ofKind("PrometheusRule").get(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) rule.getAdditionalProperties().get("spec");
        String rules = new Yaml().dump(spec);

        assertThat(Promtool.checkRules(rules)).contains("SUCCESS");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> alerts = (List<Map<String, Object>>) ((Map<String, Object>)
                ((List<?>) spec.get("groups")).get(0)).get("rules");
        assertThat(alerts).extracting(a -> a.get("alert")).contains("MakeroomDown", "MakeroomClusterViewStale",
                "MakeroomHighExtenderLatency", "MakeroomReschedulerEvictionsFailing", "MakeroomReschedulerPoliciesRejected",
                "MakeroomQueuesRejected", "MakeroomExtenderErrors", "MakeroomConsolidationTaintFailing");

        // the ServiceMonitor's job label is the scraped Service's name
        String job = rendering.one(Service.class, "makeroom-management").getMetadata().getName();
        assertThat(alerts).allSatisfy(a -> assertThat((String) a.get("expr")).contains("job=\"" + job + "\""));

        String scrape = DemoScrape.afterOneCallPerVerb(port, managementPort);
        Set<String> queried = new TreeSet<>(DemoScrape.assertExposesEveryMetricIn(rules, scrape));
        assertThat(queried).hasSizeGreaterThanOrEqualTo(3);
    }

    /**
     * The stale-view alert, as promtool evaluates it: a healthy quiet cluster (watches up, no events
     * for an hour) never fires it; a dead watch (staleness growing a minute a minute) fires it once
     * it has been stale past staleViewSeconds (120) for staleViewFor (3m): pending from minute 3, firing at 6.
     */
    @Test
    void the_stale_view_alert_fires_on_a_dead_watch_and_never_on_a_quiet_cluster() throws Exception {
        Rendering rendering = Chart.render(Map.of("prometheusRule.enabled", true));
        GenericKubernetesResource rule = (GenericKubernetesResource) rendering.ofKind("PrometheusRule").get(0);
        String rules = new Yaml().dump(rule.getAdditionalProperties().get("spec"));
        String job = "makeroom-management";
        String tests = """
                tests:
                  - name: a quiet healthy cluster
                    interval: 1m
                    input_series:
                      - series: 'makeroom_informer_stale_seconds{job="%1$s",pod="makeroom-0",kind="pod"}'
                        values: '0.6+0x60'
                      - series: 'makeroom_informer_stale_seconds{job="%1$s",pod="makeroom-0",kind="poddisruptionbudget"}'
                        values: '0.9+0x60'
                    alert_rule_test:
                      - alertname: MakeroomClusterViewStale
                        eval_time: 60m
                        exp_alerts: []
                  - name: a dead pod watch
                    interval: 1m
                    input_series:
                      - series: 'makeroom_informer_stale_seconds{job="%1$s",pod="makeroom-0",kind="pod"}'
                        values: '0+60x30'
                      - series: 'makeroom_informer_stale_seconds{job="%1$s",pod="makeroom-0",kind="node"}'
                        values: '0.5+0x30'
                    alert_rule_test:
                      - alertname: MakeroomClusterViewStale
                        eval_time: 5m
                        exp_alerts: []
                      - alertname: MakeroomClusterViewStale
                        eval_time: 6m
                        exp_alerts:
                          - exp_labels: {severity: warning, pod: makeroom-0, kind: pod}
                            exp_annotations:
                              summary: makeroom makeroom-0 has had no live watch on pod for 6m 0s
                              description: Its decisions rest on an old view of the cluster; check its access to the API server.
                """.formatted(job);
        assertThat(job).isEqualTo(rendering.one(Service.class, "makeroom-management").getMetadata().getName());

        assertThat(Promtool.testRules(rules, tests)).contains("SUCCESS");
    }

    /**
     * The rescheduler's eviction alert, as promtool evaluates it: refusals beside evictions that go
     * through never fire it; refusals with none done for half an hour, kept up 15 minutes, do.
     */
    @Test
    void the_eviction_alert_fires_only_when_refusals_leave_nothing_done() throws Exception {
        String rules = rules();
        String tests = """
                tests:
                  - name: refusals beside evictions that go through
                    interval: 1m
                    input_series:
                      - series: 'makeroom_rescheduler_evictions_total{job="makeroom-management",pod="makeroom-0",policy="rebalance",result="blocked_by_budget"}'
                        values: '0+1x60'
                      - series: 'makeroom_rescheduler_evictions_total{job="makeroom-management",pod="makeroom-0",policy="rebalance",result="evicted"}'
                        values: '0+1x60'
                    alert_rule_test:
                      - alertname: MakeroomReschedulerEvictionsFailing
                        eval_time: 60m
                        exp_alerts: []
                  - name: refused in a row
                    interval: 1m
                    input_series:
                      - series: 'makeroom_rescheduler_evictions_total{job="makeroom-management",pod="makeroom-0",policy="rebalance",result="blocked_by_budget"}'
                        values: '0+1x60'
                      - series: 'makeroom_rescheduler_evictions_total{job="makeroom-management",pod="makeroom-0",policy="rebalance",result="evicted"}'
                        values: '3+0x60'
                    alert_rule_test:
                      - alertname: MakeroomReschedulerEvictionsFailing
                        eval_time: 10m
                        exp_alerts: []
                      - alertname: MakeroomReschedulerEvictionsFailing
                        eval_time: 30m
                        exp_alerts:
                          - exp_labels: {severity: warning, pod: makeroom-0}
                            exp_annotations:
                              summary: makeroom makeroom-0 has had evictions refused or failing, and none done, for half an hour
                              description: See /debug/rescheduler for the budgets that refuse and the errors; refused pods are held back and retried later.
                """;
        assertThat(Promtool.testRules(rules, tests)).contains("SUCCESS");
    }

    /**
     * The alerts on what makeroom rejects or fails at: a rejected queues document fires at once and
     * stops ten minutes after; server errors fire per verb, rejected bad input (4xx) never; a taint
     * makeroom cannot write or remove fires once it has kept failing 15 minutes.
     */
    @Test
    void rejected_documents_server_errors_and_stuck_taints_fire_and_bad_input_does_not() throws Exception {
        String rules = rules();
        String tests = """
                tests:
                  - name: a queues document rejected once
                    interval: 1m
                    input_series:
                      - series: 'makeroom_queue_config_reload_failures_total{job="makeroom-management",pod="makeroom-0"}'
                        values: '0 0 0 0 0 1+0x30'
                    alert_rule_test:
                      - alertname: MakeroomQueuesRejected
                        eval_time: 4m
                        exp_alerts: []
                      - alertname: MakeroomQueuesRejected
                        eval_time: 6m
                        exp_alerts:
                          - exp_labels: {severity: warning, pod: makeroom-0}
                            exp_annotations:
                              summary: makeroom makeroom-0 rejected a queues document; the last good one stays in force
                              description: makeroom's log names the key that is wrong; until it is fixed, changes to queues do not apply.
                      - alertname: MakeroomQueuesRejected
                        eval_time: 25m
                        exp_alerts: []
                  - name: server errors on preempt, bad input on filter
                    interval: 1m
                    input_series:
                      - series: 'makeroom_extender_request_seconds_count{job="makeroom-management",pod="makeroom-0",verb="preempt",outcome="error"}'
                        values: '0 0 0 2+1x20'
                      - series: 'makeroom_extender_request_seconds_count{job="makeroom-management",pod="makeroom-0",verb="filter",outcome="rejected"}'
                        values: '0+5x20'
                    alert_rule_test:
                      - alertname: MakeroomExtenderErrors
                        eval_time: 10m
                        exp_alerts:
                          - exp_labels: {severity: warning, pod: makeroom-0, verb: preempt}
                            exp_annotations:
                              summary: makeroom makeroom-0 answered preempt calls with server errors
                              description: The scheduler goes on without makeroom for those calls (ignorable) or fails them; makeroom's log says why.
                  - name: a taint that cannot be removed
                    interval: 1m
                    input_series:
                      - series: 'makeroom_rescheduler_consolidations_total{job="makeroom-management",pod="makeroom-0",result="api_failed"}'
                        values: '0+1x40'
                      - series: 'makeroom_rescheduler_consolidations_total{job="makeroom-management",pod="makeroom-0",result="emptied"}'
                        values: '0+1x40'
                    alert_rule_test:
                      - alertname: MakeroomConsolidationTaintFailing
                        eval_time: 10m
                        exp_alerts: []
                      - alertname: MakeroomConsolidationTaintFailing
                        eval_time: 20m
                        exp_alerts:
                          - exp_labels: {severity: warning, pod: makeroom-0}
                            exp_annotations:
                              summary: makeroom makeroom-0 cannot write or remove the consolidating taint
                              description: A node may stay tainted makeroom.dev/consolidating and take no pods; check makeroom's permission to patch nodes, and remove the taint by hand if makeroom is gone.
                """;
        assertThat(Promtool.testRules(rules, tests)).contains("SUCCESS");
    }

    /** The chart's PrometheusRule's rules, as promtool reads a rules file. */
    private static String rules() {
        Rendering rendering = Chart.render(Map.of("prometheusRule.enabled", true));
        GenericKubernetesResource rule = (GenericKubernetesResource) rendering.ofKind("PrometheusRule").get(0);
        return new Yaml().dump(rule.getAdditionalProperties().get("spec"));
    }
}
