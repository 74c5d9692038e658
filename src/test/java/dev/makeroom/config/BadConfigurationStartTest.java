package dev.makeroom.config;

import dev.makeroom.MakeroomApplication;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A makeroom setting with a typo or a value that makes no sense (alone or beside another, space-separated
 * in a row) stops the start, naming the key.
 */
@ExtendWith(OutputCaptureExtension.class)
class BadConfigurationStartTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "makeroom.preemption.budgett=1s | makeroom.preemption.budgett",
            "makeroom.preemption.budget=0s  | makeroom.preemption.budget",
            "makeroom.cluster.resync=200ms  | makeroom.cluster.resync",
            "makeroom.rescheduler.interval=10ms | makeroom.rescheduler.interval",
            "makeroom.events.per-second=0   | makeroom.events.perSecond", // Spring names a failed constraint's key camel-cased
            "makeroom.web.warmup=0s makeroom.web.exit-after-warmup=true | makeroom.web.exitAfterWarmup"})
    void the_start_stops_naming_the_key(String settings, String key, CapturedOutput output) {
        Stream<String> args = Stream.concat(Stream.of("--server.port=0", "--management.server.port=0",
                "--makeroom.cluster.snapshot=examples/demo-cluster.yaml"),
                Stream.of(settings.trim().split("\\s+")).map(setting -> "--" + setting));
        assertThatThrownBy(() -> new SpringApplicationBuilder(MakeroomApplication.class).run(args.toArray(String[]::new)))
                .isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START").contains(key.trim());
    }
}
