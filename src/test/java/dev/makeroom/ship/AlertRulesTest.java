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
                "MakeroomHighExtenderLatency");

        // the ServiceMonitor's job label is the scraped Service's name
        String job = rendering.one(Service.class, "makeroom-management").getMetadata().getName();
        assertThat(alerts).allSatisfy(a -> assertThat((String) a.get("expr")).contains("job=\"" + job + "\""));

        String scrape = DemoScrape.afterOneCallPerVerb(port, managementPort);
        Set<String> queried = new TreeSet<>(DemoScrape.assertExposesEveryMetricIn(rules, scrape));
        assertThat(queried).hasSizeGreaterThanOrEqualTo(3);
    }
}
