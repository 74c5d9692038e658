package dev.makeroom.ship;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/wiring.md's examples are what an operator copies into a control plane: each one is read here and
 * checked against the chart (the entry it shows is the one the chart renders for the values it names)
 * and against itself (a file named by a flag is the file mounted).
 */
class WiringDocTest {

    private static final Path DOC = Path.of("docs/wiring.md");
    private static final String CONFIG_FILE = "/etc/kubernetes/scheduler-config.yaml";

    @Test
    void the_configuration_file_s_entry_is_the_chart_s_for_the_values_the_page_names() throws IOException {
        Map<String, Object> config = block("kind: KubeSchedulerConfiguration");
        Rendering rendering = Chart.render(Map.of("extender.host", "10.96.0.50", "service.clusterIP", "10.96.0.50"));

        assertThat(config.get("extenders")).isEqualTo(List.of(HelmChartTest.snippet(rendering)));
        assertThat(rendering.one(Service.class, "makeroom").getSpec().getClusterIP()).isEqualTo("10.96.0.50");
        assertThat(WiringDocTest.<String>at(config, "clientConnection.kubeconfig")).isEqualTo("/etc/kubernetes/scheduler.conf");
        assertThat(config).containsEntry("apiVersion", "kubescheduler.config.k8s.io/v1");
    }

    @Test
    void the_page_s_verbs_table_is_what_auto_registers_with_the_defaults() throws IOException {
        assertThat(text()).contains("With the chart's defaults that is `preempt` alone");
        String rendered = Chart.render(Map.of()).one(ConfigMap.class, "makeroom-extender").getData().get("extenders.yaml");
        assertThat(rendered).contains("preemptVerb: preempt").doesNotContain("filterVerb").doesNotContain("prioritizeVerb");
    }

    @Test
    void kubeadm_mounts_the_file_its_config_flag_names() throws IOException {
        Map<String, Object> kubeadm = block("kind: ClusterConfiguration");
        List<Map<String, Object>> args = at(kubeadm, "scheduler.extraArgs");
        assertThat(args).contains(Map.of("name", "config", "value", CONFIG_FILE));
        List<Map<String, Object>> volumes = at(kubeadm, "scheduler.extraVolumes");
        assertThat(volumes).anySatisfy(volume -> {
            assertThat(volume).containsEntry("hostPath", CONFIG_FILE).containsEntry("mountPath", CONFIG_FILE);
        });
    }

    @Test
    void the_static_pod_mounts_the_file_its_config_flag_names() throws IOException {
        Map<String, Object> pod = block("# /etc/kubernetes/manifests/kube-scheduler.yaml");
        List<Map<String, Object>> containers = at(pod, "spec.containers");
        Map<String, Object> scheduler = containers.get(0);
        List<String> command = at(scheduler, "command");
        assertThat(command).contains("--config=" + CONFIG_FILE);
        List<Map<String, Object>> mounts = at(scheduler, "volumeMounts");
        Map<String, Object> mount = mounts.stream().filter(m -> CONFIG_FILE.equals(m.get("mountPath"))).findFirst().orElseThrow();
        List<Map<String, Object>> volumes = at(pod, "spec.volumes");
        assertThat(volumes).anySatisfy(volume -> {
            assertThat(volume).containsEntry("name", mount.get("name"));
            assertThat(WiringDocTest.<String>at(volume, "hostPath.path")).isEqualTo(CONFIG_FILE);
        });
    }

    @Test
    void the_tls_paths_the_page_names_are_the_chart_s() throws IOException {
        Map<String, Object> entry = HelmChartTest.snippet(Chart.render(Map.of("tls.enabled", true)));
        assertThat(text()).contains("`caFile: " + WiringDocTest.<String>at(entry, "tlsConfig.caFile") + "`")
                .contains("`serverName: " + WiringDocTest.<String>at(entry, "tlsConfig.serverName") + "`");
    }

    /** The chart's comments send operators to pages of makeroom's docs: each page, and each section named, exists. */
    @Test
    void the_chart_s_comments_point_at_pages_and_sections_that_exist() throws IOException {
        Pattern reference = Pattern.compile("(docs/[a-z-]+\\.md)(?:, \"([^\"]+)\")?");
        List<Path> files;
        try (var walk = Files.walk(Path.of("helm/makeroom"))) {
            files = walk.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".tpl")).toList();
        }
        int checked = 0;
        for (Path file : files) {
            String chart = Files.readString(file);
            assertThat(chart).as(file + " names README sections, which are gone").doesNotContainPattern("README, [A-Z]");
            Matcher m = reference.matcher(chart);
            while (m.find()) {
                Path page = Path.of(m.group(1));
                assertThat(page).as(file + " points at " + page).exists();
                if (m.group(2) != null) {
                    assertThat(Files.readString(page)).as(file + " points at " + page + ", " + m.group(2))
                            .containsPattern("(?m)^#+ " + Pattern.quote(m.group(2)) + "$");
                }
                checked++;
            }
        }
        assertThat(checked).as("references checked").isGreaterThan(5);
    }

    /** The page's YAML block that contains {@code marker}, parsed. */
    private static Map<String, Object> block(String marker) throws IOException {
        List<String> found = new ArrayList<>();
        Matcher blocks = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(text());
        while (blocks.find()) {
            if (blocks.group(1).contains(marker)) {
                found.add(blocks.group(1));
            }
        }
        assertThat(found).as("YAML blocks of docs/wiring.md with " + marker).hasSize(1);
        return Chart.yaml(found.get(0));
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Map<String, Object> map, String dotted) {
        return (T) Chart.path(map, dotted);
    }

    private static String text() throws IOException {
        return Files.readString(DOC);
    }
}
