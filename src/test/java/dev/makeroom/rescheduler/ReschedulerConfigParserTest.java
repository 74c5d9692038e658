package dev.makeroom.rescheduler;

import dev.makeroom.core.reschedule.RescheduleSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReschedulerConfigParserTest {

    @Test
    void the_example_document_reads_as_written() throws Exception {
        RescheduleSettings settings = ReschedulerConfigParser.parse(Files.readString(Path.of("examples/rescheduler.yaml")));
        assertThat(settings.rebalance().enabled()).isTrue();
        assertThat(settings.rebalance().lowPercent()).isEqualTo(Map.of("cpu", 30, "memory", 30));
        assertThat(settings.rebalance().highPercent()).isEqualTo(Map.of("cpu", 75, "memory", 80));
        assertThat(settings.affinity()).isTrue();
        assertThat(settings.limits()).isEqualTo(new RescheduleSettings.MoveLimits(10, 2, 20, 1, 50));
        assertThat(settings.allowLocalStorage()).isFalse();
        assertThat(settings.preferredMinGain()).isEqualTo(50);
    }

    @Test
    void an_empty_document_means_both_policies_off() {
        assertThat(ReschedulerConfigParser.parse("")).isEqualTo(ReschedulerConfigParser.DEFAULTS);
        assertThat(ReschedulerConfigParser.DEFAULTS.rebalance().enabled()).isFalse();
        assertThat(ReschedulerConfigParser.DEFAULTS.affinity()).isFalse();
    }

    @Test
    void a_bad_document_is_rejected_naming_what_is_wrong() {
        assertRejected("policies: {rebalance: {enabled: true, low: {cpu: 80}, high: {cpu: 70}}}",
                "policies.rebalance.low.cpu (80) must be below policies.rebalance.high.cpu (70)");
        assertRejected("policies: {rebalance: {enabled: true, low: {cpu: 10}, high: {cpu: 170}}}",
                "policies.rebalance.high.cpu must be a whole percent 0..100");
        assertRejected("policies: {rebalance: {enabled: true}}", "policies.rebalance needs low and high thresholds");
        assertRejected("policies: {rebalanse: {enabled: true}}", "unknown key rebalanse in policies");
        assertRejected("limits: {perRound: -1}", "limits.perRound must be a whole number, 0 or more");
        assertRejected("policies: {affinity: {enabled: yes please}}", "policies.affinity.enabled must be true or false");
        assertRejected("policies: [", "not valid YAML");
        assertRejected("policies: {affinity: {enabled: true, minGain: -5}}", "policies.affinity.minGain must be a whole number");
    }

    private static void assertRejected(String yaml, String message) {
        assertThatThrownBy(() -> ReschedulerConfigParser.parse(yaml))
                .isInstanceOf(InvalidReschedulerConfigException.class).hasMessageContaining(message);
    }
}
