package dev.makeroom.ship;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import dev.makeroom.cluster.SnapshotFileLoader;
import io.fabric8.kubernetes.api.model.HasMetadata;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
            "prometheusRule.enabled", true, "networkPolicy.enabled", true, "scheduler.enabled", true,
            "debugApi.aggregated.enabled", true);

    private Chart() {
    }

    static String template(Map<String, Object> values) {
        TemplateCommand command = new Helm(DIR).template().withName(RELEASE).withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION);
        values.forEach(command::set);
        return command.call();
    }

    /** The chart rendered with a values file (for values --set cannot write, such as whole documents as maps). */
    static String templateWithValuesFile(String valuesYaml) {
        try {
            Path file = Files.createTempFile("makeroom-values", ".yaml");
            try {
                Files.writeString(file, valuesYaml);
                return new Helm(DIR).template().withName(RELEASE).withNamespace(NAMESPACE).withKubeVersion(KUBE_VERSION)
                        .withValuesFile(file).call();
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Rendering render(Map<String, Object> values) {
        return rendering(template(values));
    }

    /** The chart rendered with a values file, read as objects (for values --set cannot write, such as lists). */
    static Rendering renderWithValuesFile(String valuesYaml) {
        return rendering(templateWithValuesFile(valuesYaml));
    }

    private static Rendering rendering(String rendered) {
        return new Rendering(new SnapshotFileLoader().load(
                new ByteArrayInputStream(rendered.getBytes(StandardCharsets.UTF_8)), "the rendered chart"));
    }

    /** helm lint --strict with the chart's default values (helm-java's lint takes no others). */
    static LintResult lint() {
        return new Helm(DIR).lint().strict().call();
    }

    /** A dotted path into nested maps; null where any step is missing. */
    static Object path(Map<String, Object> map, String dotted) {
        Object at = map;
        for (String key : dotted.split("\\.")) {
            if (!(at instanceof Map<?, ?> m)) {
                return null;
            }
            at = m.get(key);
        }
        return at;
    }

    static Map<String, Object> yaml(String text) {
        return new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
    }

    static String read(String file) {
        try {
            return Files.readString(Path.of(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
