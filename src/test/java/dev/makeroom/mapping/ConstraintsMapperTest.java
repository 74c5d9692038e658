package dev.makeroom.mapping;

import dev.makeroom.core.model.LabelSelector;
import dev.makeroom.core.model.PodAffinityTerm;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.PreferredPodTerm;
import dev.makeroom.core.model.SchedulingConstraints;
import dev.makeroom.core.model.SpreadConstraint;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** A pod's placement constraints as the scheduler's filters read them, and what makeroom says it cannot check. */
class ConstraintsMapperTest {

    private static PodInfo map(String spec) {
        String yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, uid: u, labels: {app: web, rev: r7}}\nspec:\n" + spec;
        return PodMapper.toCore(new KubernetesSerialization().unmarshal(yaml, Pod.class), name -> null);
    }

    @Test
    void do_not_schedule_spread_is_read_with_match_label_keys_and_schedule_anyway_is_kept_apart() {
        SchedulingConstraints c = map("""
                  topologySpreadConstraints:
                  - {maxSkew: 2, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule,
                     labelSelector: {matchLabels: {app: web}}, matchLabelKeys: [rev], minDomains: 3}
                  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway,
                     labelSelector: {matchLabels: {app: web}}}
                  containers: [{name: c}]
                """).constraints();

        assertThat(c.spread()).containsExactly(new SpreadConstraint(2, "topology.kubernetes.io/zone",
                LabelSelector.matching(Map.of("app", "web", "rev", "r7")), 3, true));
        assertThat(c.softSpread()).as("only scores: never a filter, the spread policy's with scheduleAnyway")
                .containsExactly(new SpreadConstraint(1, "kubernetes.io/hostname", LabelSelector.matching(Map.of("app", "web")),
                        1, true));
        assertThat(c.unmodelled()).isEmpty();
    }

    @Test
    void required_pod_affinity_and_node_affinity_are_read() {
        SchedulingConstraints c = map("""
                  nodeSelector: {disk: ssd}
                  affinity:
                    podAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                      - {topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: db}}}
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms:
                        - matchExpressions: [{key: pool, operator: In, values: [a, b]}]
                  topologySpreadConstraints:
                  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule,
                     labelSelector: {matchLabels: {app: web}}}
                  containers: [{name: c}]
                """).constraints();

        assertThat(c.affinity()).singleElement().satisfies(t -> {
            assertThat(t.topologyKey()).isEqualTo("topology.kubernetes.io/zone");
            assertThat(t.selector()).isEqualTo(LabelSelector.matching(Map.of("app", "db")));
        });
        assertThat(c.allowsNode(Map.of("disk", "ssd", "pool", "b"), "n")).isTrue();
        assertThat(c.allowsNode(Map.of("disk", "ssd", "pool", "c"), "n")).isFalse();
        assertThat(c.allowsNode(Map.of("pool", "a"), "n")).isFalse();
    }

    /** A pod's claims are read with the claim serving each: named, or made from a template (the status says which). */
    @Test
    void a_pods_resource_claims_are_read_with_the_claim_serving_each() {
        var pod = map("""
                  resourceClaims:
                  - {name: gpu, resourceClaimTemplateName: one-gpu}
                  - {name: nic, resourceClaimName: shared-nic}
                  containers: [{name: c, resources: {claims: [{name: gpu}, {name: nic}]}}]
                """);
        assertThat(pod.constraints().unmodelled()).as("devices are modelled: DynamicResources decides").isEmpty();
        assertThat(pod.claims()).containsExactly(new dev.makeroom.core.model.PodClaim("gpu", null),
                new dev.makeroom.core.model.PodClaim("nic", "shared-nic"));
    }

    @Test
    void what_makeroom_cannot_check_is_named() {
        SchedulingConstraints c = map("""
                  affinity:
                    podAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                      - topologyKey: kubernetes.io/hostname
                        labelSelector: {matchLabels: {app: db}}
                        namespaceSelector: {matchLabels: {team: data}}
                  topologySpreadConstraints:
                  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule,
                     labelSelector: {matchLabels: {app: web}}, nodeTaintsPolicy: Honor}
                  volumes:
                  - {name: data, persistentVolumeClaim: {claimName: data}}
                  - {name: conf, configMap: {name: conf}}
                  containers: [{name: c}]
                """).constraints();

        assertThat(c.unmodelled()).containsExactly("pod affinity choosing namespaces by their labels",
                "a persistentVolumeClaim volume (volume limits, zones and binding are not modelled)");
        assertThat(c.spread().get(0).honorTaints()).isTrue();
    }

    @Test
    void a_spread_constraint_without_a_selector_counts_no_pod_but_still_needs_its_key() {
        SchedulingConstraints c = map("""
                  topologySpreadConstraints:
                  - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule}
                  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway,
                     labelSelector: {matchLabels: {app: web}}}
                  containers: [{name: c}]
                """).constraints();
        assertThat(c.spread()).hasSize(1);
        assertThat(c.spread().get(0).topologyKey()).isEqualTo("topology.kubernetes.io/zone");
        assertThat(c.spread().get(0).selector().matches(Map.of())).isFalse();
        assertThat(c.spread().get(0).selector().matches(Map.of("app", "web"))).isFalse();
    }

    @Test
    void match_fields_on_the_node_name_are_kept_and_other_fields_match_no_node() {
        SchedulingConstraints pinned = map("""
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms:
                        - matchFields: [{key: metadata.name, operator: In, values: [node-b]}]
                  containers: [{name: c}]
                """).constraints();
        assertThat(pinned.allowsNode(Map.of(), "node-b")).isTrue();
        assertThat(pinned.allowsNode(Map.of("metadata.name", "node-b"), "node-a")).isFalse();
        SchedulingConstraints otherField = map("""
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms:
                        - matchFields: [{key: spec.providerID, operator: In, values: [x]}]
                        - matchExpressions: [{key: pool, operator: In, values: [a]}]
                  containers: [{name: c}]
                """).constraints();
        assertThat(otherField.allowsNode(Map.of("pool", "a"), "x")).isTrue();
        assertThat(otherField.allowsNode(Map.of("pool", "b"), "x")).isFalse();
    }

    @Test
    void a_pod_without_such_constraints_shares_the_empty_value() {
        assertThat(map("  containers: [{name: c}]\n").constraints()).isSameAs(SchedulingConstraints.NONE);
        assertThat(map("  containers: [{name: c}]\n").constraints().spread()).isEqualTo(List.of());
    }

    @Test
    void node_selectors_and_preferred_node_affinity_are_kept_for_running_pods_and_gt_lt_compare_integers() {
        SchedulingConstraints c = map("""
                  nodeSelector: {pool: gpu}
                  affinity:
                    nodeAffinity:
                      preferredDuringSchedulingIgnoredDuringExecution:
                      - weight: 30
                        preference: {matchExpressions: [{key: disk, operator: In, values: [ssd]}]}
                  containers: [{name: c}]
                """).constraints();
        assertThat(c.nodeTerms()).containsExactly(LabelSelector.matching(Map.of("pool", "gpu")));
        assertThat(c.nodeTermsReadable()).isTrue();
        assertThat(c.preferenceFor(Map.of("disk", "ssd"))).isEqualTo(30);
        assertThat(c.preferenceFor(Map.of("disk", "hdd"))).isZero();
        SchedulingConstraints gt = map("""
                  affinity:
                    nodeAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                        nodeSelectorTerms: [{matchExpressions: [{key: cores, operator: Gt, values: ["8"]}]}]
                      preferredDuringSchedulingIgnoredDuringExecution:
                      - weight: 30
                        preference: {matchExpressions: [{key: cores, operator: Lt, values: ["64"]}]}
                  containers: [{name: c}]
                """).constraints();
        assertThat(gt.allowsNode(Map.of("cores", "16"), "n")).isTrue();
        assertThat(gt.allowsNode(Map.of("cores", "8"), "n")).isFalse();
        assertThat(gt.allowsNode(Map.of("cores", "many"), "n")).isFalse();
        assertThat(gt.allowsNode(Map.of(), "n")).isFalse();
        assertThat(gt.preferenceFor(Map.of("cores", "32"))).isEqualTo(30);
        assertThat(gt.preferenceFor(Map.of("cores", "64"))).isZero();
    }

    @Test
    void preferred_pod_affinity_and_anti_affinity_are_kept_as_weighted_terms() {
        SchedulingConstraints c = map("""
                  affinity:
                    podAffinity:
                      preferredDuringSchedulingIgnoredDuringExecution:
                      - weight: 20
                        podAffinityTerm: {topologyKey: topology.kubernetes.io/zone, labelSelector: {matchLabels: {app: db}}}
                    podAntiAffinity:
                      preferredDuringSchedulingIgnoredDuringExecution:
                      - weight: 100
                        podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}},
                                          namespaces: [shop]}
                      - weight: 5
                        podAffinityTerm: {topologyKey: kubernetes.io/hostname}
                  containers: [{name: c}]
                """).constraints();
        assertThat(c.preferredPods()).containsExactly(
                new PreferredPodTerm(20, new PodAffinityTerm(LabelSelector.matching(Map.of("app", "db")), Set.of(), false,
                        "topology.kubernetes.io/zone"), false),
                new PreferredPodTerm(100, new PodAffinityTerm(LabelSelector.matching(Map.of("app", "web")), Set.of("shop"),
                        false, PodAffinityTerm.HOSTNAME), true));
        assertThat(c.preferredPods().get(1).signedWeight()).as("anti-affinity counts against a node").isEqualTo(-100);
    }
}
