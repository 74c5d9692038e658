package dev.makeroom.rescheduler;

import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.rounds.Aggressiveness;
import dev.makeroom.core.rounds.RescheduleSettings;
import dev.makeroom.core.rounds.Scope;
import dev.makeroom.core.rounds.affinity.AffinitySettings;
import dev.makeroom.core.rounds.consolidate.ConsolidateSettings;
import dev.makeroom.core.rounds.defragment.DefragmentSettings;
import dev.makeroom.core.rounds.duplicates.DuplicatesSettings;
import dev.makeroom.core.rounds.rebalance.RebalanceSettings;
import dev.makeroom.core.rounds.spread.SpreadSettings;
import dev.makeroom.core.rounds.taints.TaintsSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReschedulerConfigParserTest {

    @Test
    void the_example_document_reads_as_written() throws Exception {
        RescheduleSettings settings = ReschedulerConfigParser.parse(Files.readString(Path.of("examples/rescheduler.yaml")));
        assertThat(settings.policy(RebalanceSettings.class).enabled()).isTrue();
        assertThat(settings.policy(RebalanceSettings.class).lowPercent()).isEqualTo(Map.of("cpu", 30, "memory", 30));
        assertThat(settings.policy(RebalanceSettings.class).highPercent()).isEqualTo(Map.of("cpu", 75, "memory", 80));
        assertThat(settings.policy(AffinitySettings.class).enabled()).isTrue();
        assertThat(settings.limits()).isEqualTo(new RescheduleSettings.MoveLimits(10, 2, 20, 1, 50));
        assertThat(settings.allowLocalStorage()).isFalse();
        assertThat(settings.policy(AffinitySettings.class).preferredMinGain()).isEqualTo(50);
        assertThat(settings.policy(DefragmentSettings.class)).isEqualTo(new DefragmentSettings(true, Duration.ofSeconds(30),
                Set.of("default-scheduler"), Duration.ofMinutes(2), 3, Duration.ofSeconds(1)));
        assertThat(settings.policy(TaintsSettings.class)).isEqualTo(new TaintsSettings(true, Set.of("dedicated")));
        assertThat(settings.policy(SpreadSettings.class).enabled()).isTrue();
        assertThat(settings.policy(DuplicatesSettings.class).enabled()).isFalse();
        assertThat(settings.scope()).isEqualTo(new Scope(Set.of(), Set.of("kube-system"),
                new LabelSelector(Map.of(), List.of(new LabelSelector.Requirement("makeroom.dev/stay",
                        LabelSelector.Operator.DOES_NOT_EXIST, List.of()))), LabelSelector.EMPTY, 1_000_000,
                Duration.ofMinutes(10), 0));
    }

    @Test
    void the_new_policies_are_off_and_every_pod_in_scope_unless_the_document_says_otherwise() {
        RescheduleSettings settings = ReschedulerConfigParser.parse("policies: {affinity: {enabled: true}}");
        assertThat(settings.policy(TaintsSettings.class)).isEqualTo(new TaintsSettings(false, Set.of()));
        assertThat(settings.policy(SpreadSettings.class).enabled()).isFalse();
        assertThat(settings.policy(DuplicatesSettings.class).enabled()).isFalse();
        assertThat(settings.scope()).isEqualTo(Scope.ALL);
        RescheduleSettings scoped = ReschedulerConfigParser.parse("""
                scope:
                  namespaces: {include: [shop, web]}
                  nodeSelector: {matchLabels: {pool: general}}
                  podSelector: {matchExpressions: [{key: tier, operator: In, values: [batch, web]}]}
                """);
        assertThat(scoped.scope().includeNamespaces()).containsExactlyInAnyOrder("shop", "web");
        assertThat(scoped.scope().nodes()).isEqualTo(LabelSelector.matching(Map.of("pool", "general")));
        assertThat(scoped.scope().pods().matches(Map.of("tier", "web"))).isTrue();
        assertThat(scoped.scope().pods().matches(Map.of("tier", "db"))).isFalse();
    }

    @Test
    void the_versioned_form_reads_as_the_unversioned_and_another_version_or_kind_is_refused() throws Exception {
        String unversioned = Files.readString(Path.of("examples/rescheduler.yaml")).replaceAll("(?m)^(apiVersion|kind):.*\n", "");
        assertThat(ReschedulerConfigParser.parse("apiVersion: makeroom.dev/v1\nkind: ReschedulerPolicy\n" + unversioned))
                .isEqualTo(ReschedulerConfigParser.parse(unversioned));
        assertRejected("apiVersion: makeroom.dev/v2\nkind: ReschedulerPolicy", "apiVersion makeroom.dev/v2, kind ReschedulerPolicy"
                + " is not a document makeroom reads");
        assertRejected("apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy\nprofiles: []", "unknown key profiles");
        assertRejected("apiVersion: descheduler/v1alpha2\nkind: DeschedulerPolicy", "kind DeschedulerPolicy is not a document");
        assertRejected("kind: ReschedulerPolicy", "write apiVersion: makeroom.dev/v1 and kind: ReschedulerPolicy, or neither");
    }

    @Test
    void a_bad_scope_or_policy_is_rejected_naming_the_key() {
        assertRejected("scope: {namespace: {exclude: [a]}}", "unknown key namespace in scope");
        assertRejected("scope: {namespaces: {exclude: a}}", "scope.namespaces.exclude must be a list of names");
        assertRejected("scope: {priorityThreshold: high}", "scope.priorityThreshold must be a whole number");
        assertRejected("scope: {minPodAge: 10 minutes}", "scope.minPodAge must be a duration");
        assertRejected("scope: {minReplicas: -1}", "scope.minReplicas must be a whole number, 0 or more");
        assertRejected("scope: {podSelector: {matchExpressions: [{key: a, operator: Equals, values: [b]}]}}",
                "scope.podSelector.matchExpressions[0].operator must be In, NotIn, Exists or DoesNotExist");
        assertRejected("scope: {podSelector: {matchExpressions: [{key: a, operator: In}]}}",
                "scope.podSelector.matchExpressions[0].values must be a non-empty list for In and NotIn");
        assertRejected("scope: {nodeSelector: {matchLabels: {pool: 3}}}", "scope.nodeSelector.matchLabels.pool must be a string");
        assertRejected("policies: {taints: {enabled: true, keys: dedicated}}", "policies.taints.keys must be a list of names");
        assertRejected("policies: {spread: {enabled: true, maxSkew: 2}}", "unknown key maxSkew in policies.spread");
        assertRejected("policies: {spread: {enabled: true, scheduleAnyway: often}}",
                "policies.spread.scheduleAnyway must be true or false");
        assertThat(ReschedulerConfigParser.parse("policies: {spread: {enabled: true, scheduleAnyway: true}}")
                .policy(SpreadSettings.class).scheduleAnyway()).isTrue();
        assertRejected("policies: {duplicates: {enabled: maybe}}", "policies.duplicates.enabled must be true or false");
    }

    @Test
    void consolidation_is_off_unless_turned_on_and_reads_its_thresholds() {
        assertThat(ReschedulerConfigParser.parse("policies: {affinity: {enabled: true}}").policy(ConsolidateSettings.class))
                .isEqualTo(new ConsolidateSettings(false, Map.of(), Map.of(), Duration.ofMinutes(15), 1,
                        Duration.ofMinutes(10)));
        ConsolidateSettings c = ReschedulerConfigParser.parse("""
                policies:
                  rebalance: {enabled: true, low: {cpu: 20}, high: {cpu: 80, memory: 85}}
                  consolidate: {enabled: true, below: {cpu: 25, memory: 25}, ceiling: {cpu: 75, memory: 85},
                                drainWithin: 20m, nodesAtOnce: 2, keepEmptyFor: 15m}
                """).policy(ConsolidateSettings.class);
        assertThat(c).isEqualTo(new ConsolidateSettings(true, Map.of("cpu", 25, "memory", 25),
                Map.of("cpu", 75, "memory", 85), Duration.ofMinutes(20), 2, Duration.ofMinutes(15)));
        assertThat(ReschedulerConfigParser.parse("policies: {consolidate: {enabled: true, below: {cpu: 20},"
                + " ceiling: {cpu: 80}}}").policy(ConsolidateSettings.class).keepEmptyFor()).isEqualTo(Duration.ofMinutes(10));
        assertRejected("policies: {consolidate: {enabled: true, below: {cpu: 20}}}",
                "policies.consolidate needs below and ceiling thresholds");
        assertRejected("policies: {consolidate: {enabled: true, below: {cpu: 60}, ceiling: {cpu: 50}}}",
                "policies.consolidate.below.cpu (60) must be below policies.consolidate.ceiling.cpu (50)");
        assertRejected("policies: {rebalance: {enabled: true, low: {cpu: 20}, high: {cpu: 70}},"
                        + " consolidate: {enabled: true, below: {cpu: 20}, ceiling: {cpu: 80}}}",
                "policies.consolidate.ceiling.cpu (80) must not be above policies.rebalance.high.cpu (70)");
        assertRejected("policies: {consolidate: {enabled: true, below: {cpu: 20}, ceiling: {cpu: 80}, nodesAtOnce: 0}}",
                "policies.consolidate.nodesAtOnce must be 1 or more");
        assertRejected("policies: {consolidate: {enabled: true, below: {cpu: 20}, ceiling: {cpu: 80}, drainWithin: 0s}}",
                "policies.consolidate.drainWithin must be more than 0");
        assertRejected("policies: {consolidate: {enabled: true, below: {cpu: 20}, ceiling: {cpu: 80}, emptyAfter: 1m}}",
                "unknown key emptyAfter in policies.consolidate");
        assertThat(c.moveWholeGangs()).as("gangs stay unless the document says they may move whole").isFalse();
        assertThat(ReschedulerConfigParser.parse("policies: {consolidate: {enabled: true, below: {cpu: 20},"
                + " ceiling: {cpu: 80}, moveWholeGangs: true}}").policy(ConsolidateSettings.class).moveWholeGangs()).isTrue();
        assertRejected("policies: {consolidate: {enabled: true, below: {cpu: 20}, ceiling: {cpu: 80}, moveWholeGangs: maybe}}",
                "policies.consolidate.moveWholeGangs must be true or false");
    }

    @Test
    void defragmentation_is_on_unless_turned_off_and_reads_its_settings() {
        assertThat(ReschedulerConfigParser.parse("policies: {affinity: {enabled: true}}").policy(DefragmentSettings.class).enabled()).isTrue();
        DefragmentSettings d = ReschedulerConfigParser.parse("policies:\n  defragment: {enabled: false,"
                + " after: 2m30s, schedulerNames: [makeroom-scheduler, default-scheduler], reserveFor: 5m, maxMoves: 5,"
                + " searchBudget: 250ms}").policy(DefragmentSettings.class);
        assertThat(d).isEqualTo(new DefragmentSettings(false, Duration.ofSeconds(150),
                Set.of("makeroom-scheduler", "default-scheduler"), Duration.ofMinutes(5), 5, Duration.ofMillis(250)));
    }

    @Test
    void an_empty_document_means_defragment_on_rebalance_and_affinity_off() {
        assertThat(ReschedulerConfigParser.parse("")).isEqualTo(ReschedulerConfigParser.DEFAULTS);
        assertThat(ReschedulerConfigParser.DEFAULTS.policy(RebalanceSettings.class).enabled()).isFalse();
        assertThat(ReschedulerConfigParser.DEFAULTS.policy(AffinitySettings.class).enabled()).isFalse();
        assertThat(ReschedulerConfigParser.DEFAULTS.policy(DefragmentSettings.class).enabled()).isTrue();
    }

    @Test
    void a_bad_document_is_rejected_naming_what_is_wrong() {
        assertRejected("policies: {rebalance: {enabled: true, low: {cpu: 80}, high: {cpu: 70}}}",
                "policies.rebalance.low.cpu (80) must be below policies.rebalance.high.cpu (70)");
        assertRejected("policies: {rebalance: {enabled: true, low: {cpu: 10}, high: {cpu: 170}}}",
                "policies.rebalance.high.cpu must be a whole percent 0..100");
        assertRejected("policies: {rebalance: {enabled: true}}", "policies.rebalance needs low and high thresholds");
        assertRejected("policies: {rebalance: {enabled: true, low: {cpuu: 30}, high: {cpu: 70}}}",
                "policies.rebalance.low.cpuu: not a resource (cpu, memory, ephemeral-storage, pods, hugepages-<size>,"
                        + " or an extended resource such as nvidia.com/gpu)");
        assertRejected("policies: {rebalance: {enabled: true, low: {cpu: 30}, high: {gpu: 70}}}",
                "policies.rebalance.high.gpu: not a resource");
        assertRejected("policies: {rebalanse: {enabled: true}}", "unknown key rebalanse in policies");
        assertRejected("limits: {perRound: -1}", "limits.perRound must be a whole number, 0 or more");
        assertRejected("policies: {affinity: {enabled: yes please}}", "policies.affinity.enabled must be true or false");
        assertRejected("policies: [", "not valid YAML");
        assertRejected("policies: {affinity: {enabled: true, minGain: -5}}", "policies.affinity.minGain must be a whole number");
        assertRejected("policies: {defragment: {after: soon}}", "policies.defragment.after must be a duration such as 30s or 2m");
        assertRejected("policies: {defragment: {reserveFor: 0s}}", "policies.defragment.reserveFor must be more than 0");
        assertRejected("policies: {defragment: {maxMoves: 20}}", "policies.defragment.maxMoves must be 1..8");
        assertRejected("policies: {defragment: {schedulerNames: []}}", "policies.defragment.schedulerNames must be a list");
        assertRejected("policies: {defragment: {reserve: 2m}}", "unknown key reserve in policies.defragment");
    }

    private static void assertRejected(String yaml, String message) {
        assertThatThrownBy(() -> ReschedulerConfigParser.parse(yaml))
                .isInstanceOf(InvalidReschedulerConfigException.class).hasMessageContaining(message);
    }

    @Test
    void thresholds_take_every_resource_a_node_can_have() {
        RescheduleSettings settings = ReschedulerConfigParser.parse("policies: {rebalance: {enabled: true,"
                + " low: {nvidia.com/gpu: 10, hugepages-2Mi: 10, ephemeral-storage: 10, pods: 10},"
                + " high: {nvidia.com/gpu: 90, hugepages-2Mi: 90, ephemeral-storage: 90, pods: 90}}}");
        assertThat(settings.policy(RebalanceSettings.class).highPercent()).containsOnlyKeys("nvidia.com/gpu", "hugepages-2Mi",
                "ephemeral-storage", "pods");
    }

    @Test
    void an_aggressiveness_fills_in_what_the_document_leaves_out_and_explicit_keys_win() {
        RescheduleSettings gentle = ReschedulerConfigParser.parse("aggressiveness: gentle\n"
                + "policies: {rebalance: {enabled: true}, affinity: {enabled: true}}");
        assertThat(gentle.aggressiveness()).isEqualTo(Aggressiveness.GENTLE);
        assertThat(gentle.policy(RebalanceSettings.class).lowPercent()).isEqualTo(Map.of("cpu", 20, "memory", 20));
        assertThat(gentle.policy(RebalanceSettings.class).highPercent()).isEqualTo(Map.of("cpu", 90, "memory", 90));
        assertThat(gentle.policy(AffinitySettings.class).preferredMinGain()).isEqualTo(100);
        RescheduleSettings aggressive = ReschedulerConfigParser.parse("aggressiveness: aggressive\n"
                + "policies: {rebalance: {enabled: true, high: {cpu: 85}}, affinity: {enabled: true, minGain: 5}}");
        assertThat(aggressive.policy(RebalanceSettings.class).highPercent()).isEqualTo(Map.of("cpu", 85));
        assertThat(aggressive.policy(RebalanceSettings.class).lowPercent()).isEqualTo(Map.of("cpu", 40, "memory", 40));
        assertThat(aggressive.policy(AffinitySettings.class).preferredMinGain()).isEqualTo(5);
        assertThat(ReschedulerConfigParser.parse("policies: {affinity: {enabled: true}}").aggressiveness())
                .isEqualTo(Aggressiveness.MODERATE);
        assertRejected("aggressiveness: brave", "aggressiveness must be gentle, moderate or aggressive, not brave");
        assertThat(aggressive.refusalBackoffMax()).isEqualTo(Duration.ofHours(1));
        assertThat(ReschedulerConfigParser.parse("refusalBackoffMax: 10m").refusalBackoffMax())
                .isEqualTo(Duration.ofMinutes(10));
        assertRejected("refusalBackoffMax: soon", "refusalBackoffMax must be a duration such as 30s or 2m");
    }
}
