package dev.makeroom.debug;

import dev.makeroom.queueconfig.QueueConfigService;
import dev.makeroom.queueconfig.QueueConfigState;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.rescheduler.Rescheduler;
import dev.makeroom.rescheduler.ReschedulerConfigState;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * GET /debug/config — the settings in force, as kube-scheduler's {@code /configz} shows its own:
 * every {@code makeroom.*} property with its value and where that came from (a property source by
 * name — the command line, the environment, application.yaml — or {@code default}), and the
 * policies and queue documents with theirs (ConfigMap, file, or none), and whether DRA's devices are
 * modelled (the server serves {@code resource.k8s.io/v1}, or the dump holds its objects). The property list is the
 * configuration metadata the build writes, so a new property shows here without a change here.
 */
final class ConfigDebug {

    record Setting(String name, String value, String source) {
    }

    record Document(String source, String loadedAt, String rejected) {
    }

    /** Whether DRA's devices are modelled here, and why not ({@code notModelled}, null when they are). */
    record Devices(boolean modelled, String notModelled) {
    }

    record Config(List<Setting> settings, Document reschedulerPolicies, Document queues, Devices devices) {
    }

    /** Property sources that only re-present the others: naming them would hide where a value was set. */
    private static final List<String> VIEWS = List.of("configurationProperties");

    private final ConfigurableEnvironment environment;
    private final Rescheduler rescheduler;
    private final QueueConfigService queues;
    private final ClusterView view;
    private final List<Setting> defaults;

    ConfigDebug(ConfigurableEnvironment environment, Rescheduler rescheduler, QueueConfigService queues, ClusterView view) {
        this.environment = environment;
        this.view = view;
        this.rescheduler = rescheduler;
        this.queues = queues;
        this.defaults = metadata();
    }

    ServerResponse config(ServerRequest request) {
        List<Setting> settings = defaults.stream().map(this::inForce).toList();
        ReschedulerConfigState policies = rescheduler.configState();
        QueueConfigState queueState = queues.state();
        return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).body(new Config(settings,
                new Document(policies.source(), String.valueOf(policies.loadedAt()), policies.rejected()),
                new Document(queueState.source(), String.valueOf(queueState.loadedAt()), queueState.error()),
                new Devices(view.snapshot().devices().notModelled() == null, view.snapshot().devices().notModelled())));
    }

    /** The property's value and the first source that sets it, else its default. */
    private Setting inForce(Setting fallback) {
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (!VIEWS.contains(source.getName()) && source.containsProperty(fallback.name())) {
                return new Setting(fallback.name(), environment.getProperty(fallback.name()), spelled(source.getName()));
            }
        }
        return fallback;
    }

    /** A property source's name as an operator would say it: the command line, the environment, a file. */
    static String spelled(String source) {
        if (source.equals("commandLineArgs")) {
            return "command line";
        }
        if (source.equals("systemEnvironment")) {
            return "environment";
        }
        if (source.equals("systemProperties")) {
            return "JVM system property";
        }
        int from = source.indexOf('[');
        int to = source.indexOf(']', from + 1);
        if (source.startsWith("Config resource") && from >= 0 && to > from) {
            String resource = source.substring(from + 1, to);
            return source.contains("class path resource") ? resource + " (built in)" : resource;
        }
        return source;
    }

    /** Every makeroom property the build's configuration metadata lists, with its default. */
    private static List<Setting> metadata() {
        try (InputStream in = ConfigDebug.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            if (in == null) {
                return List.of();
            }
            List<Setting> settings = new ArrayList<>();
            for (JsonNode property : JsonMapper.shared().readTree(in).path("properties")) {
                String name = property.path("name").asString("");
                if (name.startsWith("makeroom.")) {
                    JsonNode value = property.get("defaultValue");
                    settings.add(new Setting(name, value == null || value.isNull() ? null
                            : value.isString() ? value.asString() : value.toString(), "default"));
                }
            }
            settings.sort((a, b) -> a.name().compareTo(b.name()));
            return List.copyOf(settings);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
