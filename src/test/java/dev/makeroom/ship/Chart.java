package dev.makeroom.ship;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import dev.makeroom.cluster.SnapshotFileLoader;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The Helm chart rendered and linted by real Helm (helm-java), as the release the README installs. */
final class Chart {

    static final Path DIR = Path.of("helm/makeroom");
    static final String RELEASE = "makeroom";
    static final String NAMESPACE = "makeroom-system";
    /** helm template assumes v1.20 without a cluster; the chart needs 1.26 or newer */
    static final String KUBE_VERSION = "v1.34.1";

    /** Every optional part switched on at once. */
    static final Map<String, Object> ALL_ON = Map.of("tls.enabled", true, "serviceMonitor.enabled", true,
            "prometheusRule.enabled", true, "networkPolicy.enabled", true, "scheduler.enabled", true);

    private Chart() {
    }

    static String template(Map<String, Object> values) {
        TemplateCommand command = new Helm(DIR).template().withName(RELEASE).withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION);
        values.forEach(command::set);
        return command.call();
    }

    static Rendering render(Map<String, Object> values) {
        List<HasMetadata> objects = new SnapshotFileLoader().load(
                new ByteArrayInputStream(template(values).getBytes(StandardCharsets.UTF_8)), "the rendered chart");
        return new Rendering(objects);
    }

    /** helm lint --strict with the chart's default values (helm-java's lint takes no others). */
    static LintResult lint() {
        return new Helm(DIR).lint().strict().call();
    }
}
