package dev.makeroom.debug;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** GET /debug/config: every makeroom setting in force, with where each came from. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"makeroom.preemption.strategy=kube-default", "makeroom.rescheduler.file=examples/rescheduler.yaml"})
class DebugConfigTest {

    @LocalManagementPort
    int managementPort;

    @Test
    void each_setting_says_its_value_and_where_it_came_from() {
        JsonNode config = Json.parse(new ExtenderClient(managementPort).get("/debug/config").body());
        Map<String, JsonNode> settings = new HashMap<>();
        config.get("settings").forEach(setting -> settings.put(setting.get("name").asString(), setting));

        assertThat(settings).hasSizeGreaterThan(20).allSatisfy((name, setting) -> assertThat(name).startsWith("makeroom."));
        assertThat(settings.get("makeroom.preemption.strategy").get("value").asString()).isEqualTo("kube-default");
        assertThat(settings.get("makeroom.preemption.strategy").get("source").asString()).isEqualTo("Inlined Test Properties");
        assertThat(settings.get("makeroom.cluster.snapshot").get("source").asString()).isEqualTo("application.yaml (built in)");
        assertThat(settings.get("makeroom.web.max-request-size").get("value").asString()).isEqualTo("64MB");
        assertThat(settings.get("makeroom.cluster.kubernetes-version").get("source").asString()).isEqualTo("default");
        assertThat(settings.get("makeroom.cluster.kubernetes-version").get("value").isNull()).isTrue();
        assertThat(config.at("/reschedulerPolicies/source").asString()).contains("examples/rescheduler.yaml");
        assertThat(config.at("/queues/source").asString()).isNotBlank();
    }

    @Test
    void property_sources_are_named_as_an_operator_says_them() {
        assertThat(ConfigDebug.spelled("commandLineArgs")).isEqualTo("command line");
        assertThat(ConfigDebug.spelled("systemEnvironment")).isEqualTo("environment");
        assertThat(ConfigDebug.spelled("Config resource 'file [/etc/makeroom/application.yaml]' via location 'file:/etc/makeroom/'"))
                .isEqualTo("/etc/makeroom/application.yaml");
    }
}
