package dev.makeroom.core.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Versions as people, the API server's /version and distributions write them, and the rules each turns on. */
class KubeVersionTest {

    @ParameterizedTest
    @CsvSource({"1.36, 1, 36", "v1.36.3, 1, 36", "v1.32.13+k3s1, 1, 32", "1.30-eks, 1, 30", " v1.26.4 , 1, 26"})
    void reads_major_and_minor(String text, int major, int minor) {
        assertThat(KubeVersion.parse(text)).isEqualTo(new KubeVersion(major, minor));
    }

    @Test
    void reads_the_version_endpoints_fields_with_a_trailing_plus() {
        assertThat(KubeVersion.of("1", "36+")).isEqualTo(new KubeVersion(1, 36));
    }

    @Test
    void anything_else_is_refused_with_an_example_of_what_is_read() {
        assertThatThrownBy(() -> KubeVersion.parse("latest")).hasMessageContaining("expected e.g. 1.36");
        assertThatThrownBy(() -> KubeVersion.parse(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @CsvSource({"1.26, false, false", "1.29, false, false", "1.30, false, true", "1.33, false, true",
            "1.34, true, true", "1.36, true, true", "2.0, true, true"})
    void each_rule_starts_at_the_version_its_scheduler_code_appeared_in(String version, boolean unresolvable,
                                                                         boolean emptyScores) {
        KubeVersion v = KubeVersion.parse(version);
        assertThat(v.requestAboveAllocatableIsUnresolvable()).isEqualTo(unresolvable);
        assertThat(v.scoresReturnedNodeObjectsAsEmpty()).isEqualTo(emptyScores);
    }
}
