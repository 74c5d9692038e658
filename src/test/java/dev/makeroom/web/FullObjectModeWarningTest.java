package dev.makeroom.web;

import dev.makeroom.core.model.KubeVersion;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Full-object mode is said to skew scores from Kubernetes 1.30 on, once, and never in names mode. */
class FullObjectModeWarningTest {

    @Test
    void warns_once_for_node_objects_from_a_scheduler_of_1_30_or_later() {
        FullObjectModeWarning warning = new FullObjectModeWarning();
        assertThat(warning.check(true, KubeVersion.parse("1.29"))).isFalse();
        assertThat(warning.check(false, KubeVersion.parse("1.36"))).as("names mode").isFalse();
        assertThat(warning.check(true, KubeVersion.parse("v1.30.2"))).isTrue();
        assertThat(warning.check(true, KubeVersion.parse("1.36"))).as("only once").isFalse();
    }
}
