package dev.makeroom.observability;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class DurationTextTest {

    @Test
    void durations_read_as_they_are_written_in_the_settings() {
        assertThat(DurationText.of(Duration.ofSeconds(5))).isEqualTo("5s");
        assertThat(DurationText.of(Duration.ofMinutes(1))).isEqualTo("1m");
        assertThat(DurationText.of(Duration.ofMinutes(90))).isEqualTo("1h30m");
        assertThat(DurationText.of(Duration.ofSeconds(3661))).isEqualTo("1h1m1s");
        assertThat(DurationText.of(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(DurationText.of(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(DurationText.of(Duration.ZERO)).isEqualTo("0s");
    }
}
