package dev.makeroom.ship;

import dev.makeroom.mapping.PodGroupKind;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.makeroom.ship.Chart.path;
import static dev.makeroom.ship.Chart.read;
import static dev.makeroom.ship.Chart.yaml;
import static dev.makeroom.ship.Rendering.container;
import static dev.makeroom.ship.Rendering.mountPath;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Helm chart as real Helm renders it, default and with every option on, parsed with fabric8:
 * least privilege, hardened containers, and every wire (ports, paths, names, TLS) matching the
 * application and the other side.
 */
class HelmChartTest {

    private static final Rendering DEFAULTS = Chart.render(Map.of());
    private static final Rendering ALL_ON = Chart.render(Chart.ALL_ON);
    private static final List<Rendering> BOTH = List.of(DEFAULTS, ALL_ON);

    private static final Set<String> READ_VERBS = Set.of("get", "list", "watch");

    /** makeroom's own application.yaml, whose ports and probe groups the chart must match. */
    private static final Map<String, Object> APPLICATION = yaml(read("src/main/resources/application.yaml"));

    @Test
    void helm_lint_strict_passes() {
        var lint = Chart.lint();
        assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
    }

    @Test
    void the_defaults_render_makeroom_alone_with_optional_parts_off() {
        assertThat(DEFAULTS.all(Deployment.class)).extracting(d -> d.getMetadata().getName()).containsExactly("makeroom");
        assertThat(DEFAULTS.ofKind("ServiceMonitor")).isEmpty();
        assertThat(DEFAULTS.ofKind("PrometheusRule")).isEmpty();
        assertThat(DEFAULTS.all(NetworkPolicy.class)).isEmpty();
        assertThat(ALL_ON.all(Deployment.class)).extracting(d -> d.getMetadata().getName())
                .containsExactlyInAnyOrder("makeroom", "makeroom-scheduler");
        assertThat(ALL_ON.ofKind("ServiceMonitor")).hasSize(1);
        assertThat(ALL_ON.ofKind("PrometheusRule")).hasSize(1);
        assertThat(ALL_ON.all(NetworkPolicy.class)).hasSize(1);
    }

    @Test
    void no_rbac_rule_grants_anything_but_reading_and_events_on_preemptors() {
        for (Rendering rendering : BOTH) {
            List<PolicyRule> rules = new ArrayList<>();
            rendering.all(ClusterRole.class).forEach(r -> rules.addAll(r.getRules()));
            rendering.all(Role.class).forEach(r -> rules.addAll(r.getRules()));
            assertThat(rules).isNotEmpty();
            // reviews of who calls the debug API change nothing; the operators' role names its URLs and its
            // aggregated group's routes, not the cluster's resources
            List<PolicyRule> writes = rules.stream().filter(r -> !READ_VERBS.containsAll(r.getVerbs()))
                    .filter(r -> !r.getResources().contains("tokenreviews") && !r.getResources().contains("subjectaccessreviews"))
                    .filter(r -> r.getNonResourceURLs() == null || r.getNonResourceURLs().isEmpty())
                    .filter(r -> !List.of("debug.makeroom.dev").equals(r.getApiGroups()))
                    .toList();
            assertThat(writes).singleElement().satisfies(events -> {
                assertThat(events.getResources()).containsExactly("events");
                assertThat(events.getVerbs()).containsExactly("create");
            });
            assertThat(rules).flatExtracting(PolicyRule::getResources).doesNotContain("*", "secrets");
        }
    }

    @Test
    void events_on_preemptors_can_be_switched_off_and_then_makeroom_only_reads() {
        Rendering quiet = Chart.render(Map.of("events.enabled", false, "debugApi.auth", false));
        assertThat(quiet.one(ClusterRole.class, "makeroom").getRules()).flatExtracting(PolicyRule::getVerbs)
                .allMatch(READ_VERBS::contains);
        assertThat(quiet.one(ConfigMap.class, "makeroom-config").getData().get("application.yaml"))
                .contains("events:\n    enabled: false");
        assertThat(DEFAULTS.one(ConfigMap.class, "makeroom-config").getData().get("application.yaml"))
                .contains("events:\n    enabled: true");
    }

    @Test
    void holding_a_waiting_gangs_room_grants_node_patches_and_nothing_else() {
        Rendering holding = Chart.render(Map.of("preemption.gangHold", "2m"));
        List<PolicyRule> added = new ArrayList<>(holding.one(ClusterRole.class, "makeroom").getRules());
        added.removeAll(DEFAULTS.one(ClusterRole.class, "makeroom").getRules());
        assertThat(added).singleElement().satisfies(rule -> {
            assertThat(rule.getResources()).containsExactly("nodes");
            assertThat(rule.getVerbs()).containsExactly("get", "patch");
        });
        assertThat(holding.one(ConfigMap.class, "makeroom-config").getData().get("application.yaml")).contains("gangHold: 2m");
    }

    @Test
    void makeroom_reads_exactly_what_its_view_needs_and_only_its_own_config_map() {
        ClusterRole role = DEFAULTS.one(ClusterRole.class, "makeroom");
        assertThat(role.getRules()).flatExtracting(PolicyRule::getResources)
                .containsExactlyInAnyOrder("pods", "nodes", "namespaces", "priorityclasses", "poddisruptionbudgets",
                        "podgroups", "resourceslices", "deviceclasses", "resourceclaims", // devices, where served
                        "events", "tokenreviews", "subjectaccessreviews"); // the last two: who calls the debug API
        assertThat(role.getRules()).filteredOn(r -> r.getResources().contains("resourceslices")).singleElement()
                .satisfies(rule -> {
                    assertThat(rule.getApiGroups()).containsExactly("resource.k8s.io");
                    assertThat(rule.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch");
                });
        // the PodGroups of exactly the kinds the live view watches for gangs' minimums
        assertThat(role.getRules()).filteredOn(r -> r.getResources().contains("podgroups")).singleElement()
                .satisfies(rule -> assertThat(rule.getApiGroups()).containsExactlyInAnyOrderElementsOf(
                        Arrays.stream(PodGroupKind.values()).map(PodGroupKind::group).toList()));
        Role queues = DEFAULTS.one(Role.class, "makeroom-queues");
        assertThat(queues.getMetadata().getNamespace()).isEqualTo(Chart.NAMESPACE);
        assertThat(queues.getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getResources()).containsExactly("configmaps");
            assertThat(rule.getResourceNames()).containsExactly(configMapNameMakeroomWatches());
        });
        assertThat(DEFAULTS.one(ClusterRoleBinding.class, "makeroom").getSubjects()).singleElement()
                .satisfies(s -> assertThat(s.getName()).isEqualTo(makeroomPod(DEFAULTS).getServiceAccountName()));
        assertThat(DEFAULTS.one(RoleBinding.class, "makeroom-queues").getRoleRef().getName()).isEqualTo("makeroom-queues");
    }

    @Test
    void every_container_runs_hardened() {
        for (Rendering rendering : BOTH) {
            assertThat(rendering.containers()).isNotEmpty().allSatisfy(container -> {
                SecurityContext security = container.getSecurityContext();
                assertThat(security).as(container.getName()).isNotNull();
                assertThat(security.getRunAsNonRoot()).isTrue();
                assertThat(security.getReadOnlyRootFilesystem()).isTrue();
                assertThat(security.getAllowPrivilegeEscalation()).isFalse();
                assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
                assertThat(security.getCapabilities().getAdd()).isNullOrEmpty();
                assertThat(security.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
                // the only writable place: /tmp from an emptyDir (Tomcat's work files)
                assertThat(container.getVolumeMounts()).filteredOn(m -> !Boolean.TRUE.equals(m.getReadOnly()))
                        .extracting(VolumeMount::getMountPath).containsExactly("/tmp");
            });
            rendering.all(Deployment.class).forEach(d -> assertThat(d.getSpec().getTemplate().getSpec()
                    .getSecurityContext().getRunAsUser()).isPositive());
        }
    }

    @Test
    void the_pod_runs_as_the_images_user_with_the_images_tmpdir_writable() {
        String dockerfile = read("Dockerfile");
        java.util.regex.Matcher user = java.util.regex.Pattern.compile("(?m)^USER (\\d+):(\\d+)$").matcher(dockerfile);
        assertThat(user.find()).isTrue();
        var pod = makeroomPod(DEFAULTS).getSecurityContext();
        assertThat(pod.getRunAsUser()).isEqualTo(Long.parseLong(user.group(1)));
        assertThat(pod.getRunAsGroup()).isEqualTo(Long.parseLong(user.group(2)));
        assertThat(dockerfile).contains("-Djava.io.tmpdir=" + mountPath(container(DEFAULTS.one(Deployment.class, "makeroom")), "tmp"));
        assertThat(volume(makeroomPod(DEFAULTS), "tmp").getEmptyDir()).isNotNull();
        // the exposed ports are the ones the chart names
        assertThat(dockerfile).containsPattern("(?m)^EXPOSE " + path(APPLICATION, "server.port") + " "
                + path(APPLICATION, "management.server.port") + "$");
    }

    @Test
    void two_replicas_spread_over_nodes_with_a_disruption_budget() {
        Deployment makeroom = DEFAULTS.one(Deployment.class, "makeroom");
        assertThat(makeroom.getSpec().getReplicas()).isEqualTo(2);
        var antiAffinity = makeroom.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity();
        assertThat(antiAffinity.getPreferredDuringSchedulingIgnoredDuringExecution()).singleElement().satisfies(term -> {
            assertThat(term.getPodAffinityTerm().getTopologyKey()).isEqualTo("kubernetes.io/hostname");
            assertThat(term.getPodAffinityTerm().getLabelSelector().getMatchLabels())
                    .isEqualTo(makeroom.getSpec().getSelector().getMatchLabels());
        });
        PodDisruptionBudget budget = DEFAULTS.one(PodDisruptionBudget.class, "makeroom");
        assertThat(budget.getSpec().getMinAvailable().getIntVal()).isEqualTo(1);
        assertThat(budget.getSpec().getSelector().getMatchLabels()).isEqualTo(makeroom.getSpec().getSelector().getMatchLabels());
        assertThat(container(makeroom).getResources().getLimits()).containsKey("memory");
        // one replica: a budget of minAvailable 1 would block every drain of its node
        assertThat(Chart.render(Map.of("replicaCount", 1)).all(PodDisruptionBudget.class)).isEmpty();
    }

    @Test
    void probes_and_ports_match_the_application() {
        Container makeroom = container(DEFAULTS.one(Deployment.class, "makeroom"));
        Map<String, Object> config = makeroomConfig(DEFAULTS);
        int server = (Integer) path(config, "server.port");
        int management = (Integer) path(config, "management.server.port");
        assertThat(server).isEqualTo(path(APPLICATION, "server.port"));
        assertThat(management).isEqualTo(path(APPLICATION, "management.server.port"));
        assertThat(path(APPLICATION, "management.endpoint.health.probes.enabled")).isEqualTo(true);

        assertThat(containerPort(makeroom, "extender")).isEqualTo(server);
        assertThat(containerPort(makeroom, "management")).isEqualTo(management);
        HTTPGetAction liveness = makeroom.getLivenessProbe().getHttpGet();
        HTTPGetAction readiness = makeroom.getReadinessProbe().getHttpGet();
        assertThat(liveness.getPath()).isEqualTo("/actuator/health/liveness");
        assertThat(readiness.getPath()).isEqualTo("/actuator/health/readiness");
        assertThat(List.of(liveness.getPort().getStrVal(), readiness.getPort().getStrVal(),
                makeroom.getStartupProbe().getHttpGet().getPort().getStrVal())).containsOnly("management");
        // the config file is where Spring Boot looks for it
        String location = makeroom.getEnv().stream().filter(e -> e.getName().equals("SPRING_CONFIG_ADDITIONAL_LOCATION"))
                .findFirst().orElseThrow().getValue();
        assertThat(location).isEqualTo("optional:file:" + mountPath(makeroom, "config") + "/");
        assertThat(path(config, "makeroom.cluster.source")).isEqualTo("kubernetes");
        assertThat(path(config, "makeroom.cluster.config-map-namespace")).isEqualTo(Chart.NAMESPACE);
    }

    @Test
    void makeroom_runs_critical_and_keeps_serving_until_its_endpoint_is_gone() {
        Deployment makeroom = DEFAULTS.one(Deployment.class, "makeroom");
        var pod = makeroom.getSpec().getTemplate().getSpec();
        assertThat(pod.getPriorityClassName()).isEqualTo("system-cluster-critical");
        assertThat(container(makeroom).getLifecycle().getPreStop().getExec().getCommand()).containsExactly("sleep", "10");
        // the delay, then the graceful shutdown phase, within the grace period
        Duration phase = Duration.parse("PT" + path(APPLICATION, "spring.lifecycle.timeout-per-shutdown-phase"));
        assertThat(pod.getTerminationGracePeriodSeconds()).isGreaterThan(10 + phase.toSeconds());
        // only synced replicas are behind the Service the scheduler calls (README, In a cluster)
        assertThat(DEFAULTS.one(Service.class, "makeroom").getSpec().getPublishNotReadyAddresses()).isNotEqualTo(true);
        assertThat(makeroom.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable().getIntVal()).isZero();

        Deployment plain = Chart.render(Map.of("priorityClassName", "", "shutdownDelaySeconds", 0)).one(Deployment.class, "makeroom");
        assertThat(plain.getSpec().getTemplate().getSpec().getPriorityClassName()).isNull();
        assertThat(container(plain).getLifecycle()).isNull();
    }

    @Test
    void the_services_reach_the_named_ports_of_makeroom_pods() {
        Deployment makeroom = DEFAULTS.one(Deployment.class, "makeroom");
        Map<String, String> podLabels = makeroom.getSpec().getTemplate().getMetadata().getLabels();
        for (String name : List.of("makeroom", "makeroom-management")) {
            Service service = DEFAULTS.one(Service.class, name);
            assertThat(podLabels).containsAllEntriesOf(service.getSpec().getSelector());
            assertThat(service.getSpec().getPorts()).singleElement().satisfies(port ->
                    assertThat(containerPort(container(makeroom), port.getTargetPort().getStrVal())).isEqualTo(port.getPort()));
        }
    }

    @Test
    void the_extender_snippet_points_at_the_extender_service_and_port() {
        for (Rendering rendering : BOTH) {
            Map<String, Object> extender = snippet(rendering);
            Service service = rendering.one(Service.class, "makeroom");
            ServicePort port = service.getSpec().getPorts().get(0);
            boolean tls = rendering == ALL_ON;
            assertThat(extender.get("urlPrefix")).isEqualTo((tls ? "https" : "http") + "://" + service.getMetadata().getName()
                    + "." + service.getMetadata().getNamespace() + ".svc:" + port.getPort()
                    + path(APPLICATION, "makeroom.web.prefix"));
            // neither rendering switches on what needs filter or prioritize (the_verbs_registered_follow_what_is_switched_on)
            assertThat(extender).doesNotContainKeys("filterVerb", "prioritizeVerb")
                    .containsEntry("preemptVerb", "preempt").containsEntry("nodeCacheCapable", true)
                    .containsEntry("enableHTTPS", tls).doesNotContainKey("bindVerb");
            // for an existing scheduler that also places makeroom's pods, only ignorable is safe (README, Availability)
            assertThat(extender).containsEntry("ignorable", true);
            assertThat(extender.get("httpTimeout")).isEqualTo("5s");
        }
    }

    @Test
    void the_readmes_scheduler_configuration_carries_the_rendered_entry() {
        String readme = read("README.md");
        int start = readme.indexOf("```yaml\napiVersion: kubescheduler.config.k8s.io/v1");
        assertThat(start).as("the README shows a KubeSchedulerConfiguration").isNotNegative();
        String block = readme.substring(start + "```yaml\n".length(), readme.indexOf("```", start + 3));
        assertThat(yaml(block).get("extenders")).isEqualTo(List.of(snippet(DEFAULTS)));
    }

    @Test
    void the_second_scheduler_is_the_stock_one_with_makeroom_registered_leader_elected_and_its_own_roles() {
        Map<String, Object> config = yaml(ALL_ON.one(ConfigMap.class, "makeroom-scheduler").getData().get("config.yaml"));
        assertThat(config).containsEntry("apiVersion", "kubescheduler.config.k8s.io/v1").containsEntry("kind",
                "KubeSchedulerConfiguration");
        assertThat((List<?>) config.get("profiles")).singleElement()
                .isEqualTo(Map.of("schedulerName", "makeroom-scheduler"));
        // its own pods use the default scheduler, so this one may wait for makeroom rather than go on without it
        Map<String, Object> strict = new java.util.LinkedHashMap<>(snippet(ALL_ON));
        strict.put("ignorable", false);
        assertThat(config.get("extenders")).isEqualTo(List.of(strict));
        assertThat(path(config, "leaderElection.leaderElect")).isEqualTo(true);
        assertThat(path(config, "leaderElection.resourceNamespace")).isEqualTo(Chart.NAMESPACE);
        // the name system:kube-scheduler lets it get and update; in this namespace the lease is its own
        assertThat(path(config, "leaderElection.resourceName")).isEqualTo("kube-scheduler");

        Deployment scheduler = ALL_ON.one(Deployment.class, "makeroom-scheduler");
        assertThat(scheduler.getSpec().getReplicas()).isEqualTo(2);
        Container kubeScheduler = container(scheduler);
        assertThat(kubeScheduler.getImage()).startsWith("registry.k8s.io/kube-scheduler:v1.");
        assertThat(kubeScheduler.getCommand()).contains("--config=" + mountPath(kubeScheduler, "config") + "/config.yaml");
        String account = scheduler.getSpec().getTemplate().getSpec().getServiceAccountName();
        assertThat(ALL_ON.all(ClusterRoleBinding.class)).filteredOn(b -> b.getSubjects().get(0).getName().equals(account))
                .extracting(b -> b.getRoleRef().getName())
                .containsExactlyInAnyOrder("system:kube-scheduler", "system:volume-scheduler");
        assertThat(ALL_ON.all(RoleBinding.class)).filteredOn(b -> b.getSubjects().get(0).getName().equals(account))
                .singleElement().satisfies(b -> {
                    assertThat(b.getMetadata().getNamespace()).isEqualTo("kube-system");
                    assertThat(b.getRoleRef().getName()).isEqualTo("extension-apiserver-authentication-reader");
                });
    }

    @Test
    void tls_wires_through_to_both_sides() {
        Deployment makeroom = ALL_ON.one(Deployment.class, "makeroom");
        Container container = container(makeroom);
        String certificates = mountPath(container, "tls");
        assertThat(volume(makeroom.getSpec().getTemplate().getSpec(), "tls").getSecret().getSecretName())
                .isEqualTo("makeroom-tls");
        Map<String, Object> config = makeroomConfig(ALL_ON);
        assertThat(path(config, "server.ssl.bundle")).isEqualTo("makeroom");
        assertThat(path(config, "spring.ssl.bundle.pem.makeroom.keystore.certificate")).isEqualTo(certificates + "/tls.crt");
        assertThat(path(config, "spring.ssl.bundle.pem.makeroom.keystore.private-key")).isEqualTo(certificates + "/tls.key");
        // management stays plain HTTP (it would inherit the server's TLS): the kubelet's probes and Prometheus
        assertThat(path(config, "management.server.ssl.enabled")).isEqualTo(false);
        assertThat(container.getLivenessProbe().getHttpGet().getScheme()).isNotEqualTo("HTTPS");
        assertThat(DEFAULTS.one(Service.class, "makeroom").getSpec().getPorts().get(0).getAppProtocol()).isEqualTo("http");
        assertThat(ALL_ON.one(Service.class, "makeroom").getSpec().getPorts().get(0).getAppProtocol()).isEqualTo("https");

        Map<String, Object> extender = snippet(ALL_ON);
        assertThat(extender).containsEntry("enableHTTPS", true);
        assertThat(path(extender, "tlsConfig.serverName")).isEqualTo("makeroom.makeroom-system.svc");
        Deployment scheduler = ALL_ON.one(Deployment.class, "makeroom-scheduler");
        String caDir = mountPath(container(scheduler), "makeroom-ca");
        assertThat(path(extender, "tlsConfig.caFile")).isEqualTo(caDir + "/ca.crt");
        Volume ca = volume(scheduler.getSpec().getTemplate().getSpec(), "makeroom-ca");
        assertThat(ca.getSecret().getSecretName()).isEqualTo("makeroom-tls");
        assertThat(ca.getSecret().getItems()).singleElement().satisfies(item -> {
            assertThat(item.getKey()).isEqualTo("ca.crt");
            assertThat(item.getPath()).isEqualTo("ca.crt");
        });
        // without TLS nothing of it renders
        assertThat(snippet(DEFAULTS)).doesNotContainKey("tlsConfig");
        assertThat(path(makeroomConfig(DEFAULTS), "server.ssl")).isNull();
    }

    @Test
    void the_network_policy_lets_only_the_schedulers_prometheus_and_the_api_server_in_on_their_ports() {
        NetworkPolicy policy = ALL_ON.one(NetworkPolicy.class, "makeroom");
        Deployment makeroom = ALL_ON.one(Deployment.class, "makeroom");
        assertThat(makeroom.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(policy.getSpec().getPodSelector().getMatchLabels());
        assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
        List<NetworkPolicyIngressRule> rules = policy.getSpec().getIngress();
        assertThat(rules).hasSize(3);
        assertThat(rules.get(0).getPorts()).singleElement().satisfies(p -> assertThat(p.getPort().getStrVal()).isEqualTo("extender"));
        assertThat(rules.get(1).getPorts()).singleElement().satisfies(p -> assertThat(p.getPort().getStrVal()).isEqualTo("management"));
        // the API server comes from wherever it runs; the aggregated port itself admits only its front proxy
        assertThat(rules.get(2).getPorts()).singleElement().satisfies(p -> assertThat(p.getPort().getStrVal()).isEqualTo("aggregated"));
        assertThat(rules.get(2).getFrom()).isEmpty();
        assertThat(Chart.render(Map.of("networkPolicy.enabled", true)).one(NetworkPolicy.class, "makeroom").getSpec()
                .getIngress()).as("without the aggregated API").hasSize(2);
        // the chart's own scheduler is among those allowed to call the extender
        Map<String, String> schedulerLabels = ALL_ON.one(Deployment.class, "makeroom-scheduler").getSpec().getTemplate()
                .getMetadata().getLabels();
        assertThat(rules.get(0).getFrom()).anySatisfy(peer -> assertThat(schedulerLabels)
                .containsAllEntriesOf(peer.getPodSelector().getMatchLabels()));
        assertThat(rules.get(1).getFrom()).isNotEmpty();
    }

    @Test
    void the_service_monitor_scrapes_the_management_service() {
        GenericKubernetesResource monitor = (GenericKubernetesResource) ALL_ON.ofKind("ServiceMonitor").get(0);
        Service management = ALL_ON.one(Service.class, "makeroom-management");
        @SuppressWarnings("unchecked")
        Map<String, String> selector = (Map<String, String>) path(monitor.getAdditionalProperties(), "spec.selector.matchLabels");
        assertThat(management.getMetadata().getLabels()).containsAllEntriesOf(selector);
        // and not the extender's Service
        assertThat(ALL_ON.one(Service.class, "makeroom").getMetadata().getLabels()).doesNotContainEntry(
                "app.kubernetes.io/component", selector.get("app.kubernetes.io/component"));
        Map<?, ?> endpoint = (Map<?, ?>) ((List<?>) path(monitor.getAdditionalProperties(), "spec.endpoints")).get(0);
        assertThat(endpoint.get("port")).isEqualTo(management.getSpec().getPorts().get(0).getName());
        assertThat(endpoint.get("path")).isEqualTo("/actuator/prometheus");
        // only labels an upgrade keeps: a version or chart label would leave the monitor selecting nothing
        assertThat(selector).containsOnlyKeys("app.kubernetes.io/name", "app.kubernetes.io/instance",
                "app.kubernetes.io/component");
    }

    @Test
    void the_debug_api_is_reviewed_by_default_with_a_role_for_operators_and_open_when_turned_off() {
        Rendering defaults = Chart.render(Map.of());
        assertThat(makeroomConfig(defaults)).extracting(c -> path(c, "makeroom.debug.auth")).isEqualTo(true);
        ClusterRole makeroom = defaults.one(ClusterRole.class, "makeroom");
        assertThat(makeroom.getRules()).filteredOn(r -> r.getVerbs().equals(List.of("create")))
                .flatExtracting(PolicyRule::getResources).contains("tokenreviews", "subjectaccessreviews");
        ClusterRole operators = defaults.one(ClusterRole.class, "makeroom-debug");
        assertThat(operators.getRules()).singleElement().satisfies(r -> {
            assertThat(r.getNonResourceURLs()).containsExactly("/debug", "/debug/*");
            assertThat(r.getVerbs()).containsExactly("get", "create");
        });
        Rendering open = Chart.render(Map.of("debugApi.auth", false));
        assertThat(makeroomConfig(open)).extracting(c -> path(c, "makeroom.debug.auth")).isEqualTo(false);
        assertThat(open.all(ClusterRole.class)).extracting(r -> r.getMetadata().getName()).doesNotContain("makeroom-debug");
        assertThat(open.one(ClusterRole.class, "makeroom").getRules()).flatExtracting(PolicyRule::getResources)
                .doesNotContain("tokenreviews", "subjectaccessreviews");
    }

    /**
     * The aggregated debug API: the APIService reaches makeroom's aggregation port through its Service,
     * trusts the CA that signed the serving certificate makeroom is configured with (for the Service's
     * DNS name), makeroom may read the front proxy's CA, and the operators' role lets the API server
     * proxy their calls.
     */
    @Test
    @SuppressWarnings("unchecked")
    void the_aggregated_debug_api_is_wired_from_the_api_service_to_makeroom_and_its_certificate() throws Exception {
        Rendering on = Chart.render(Map.of("debugApi.aggregated.enabled", true));
        assertThat(on.ofKind("APIService")).singleElement().satisfies(a -> assertThat(a.getMetadata().getName())
                .isEqualTo("v1.debug.makeroom.dev"));
        Map<String, Object> spec = (Map<String, Object>) new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
                .convertValue(on.ofKind("APIService").get(0), Map.class).get("spec");
        assertThat(spec).containsEntry("group", "debug.makeroom.dev").containsEntry("version", "v1");
        Map<String, Object> target = (Map<String, Object>) spec.get("service");
        Service service = on.one(Service.class, (String) target.get("name"));
        assertThat(target.get("namespace")).isEqualTo(service.getMetadata().getNamespace());
        ServicePort port = service.getSpec().getPorts().stream()
                .filter(p -> p.getPort().equals(target.get("port"))).findFirst().orElseThrow();
        Container makeroom = container(on.one(Deployment.class, "makeroom"));
        ContainerPort aggregated = makeroom.getPorts().stream()
                .filter(p -> p.getName().equals(port.getTargetPort().getStrVal())).findFirst().orElseThrow();
        Map<String, Object> config = makeroomConfig(on);
        assertThat(path(config, "makeroom.debug.aggregation.port")).isEqualTo(aggregated.getContainerPort());

        // the certificate makeroom serves is the Secret's, mounted where its configuration says
        io.fabric8.kubernetes.api.model.Secret secret = on.one(io.fabric8.kubernetes.api.model.Secret.class,
                "makeroom-api-tls");
        String certificateFile = (String) path(config, "makeroom.debug.aggregation.certificate-file");
        String mounted = mountPath(makeroom, on.one(Deployment.class, "makeroom").getSpec().getTemplate().getSpec()
                .getVolumes().stream().filter(v -> v.getSecret() != null && v.getSecret().getSecretName()
                        .equals(secret.getMetadata().getName())).findFirst().orElseThrow().getName());
        assertThat(certificateFile).isEqualTo(mounted + "/tls.crt");
        assertThat(path(config, "makeroom.debug.aggregation.key-file")).isEqualTo(mounted + "/tls.key");
        java.security.cert.CertificateFactory x509 = java.security.cert.CertificateFactory.getInstance("X.509");
        java.security.cert.X509Certificate served = (java.security.cert.X509Certificate) x509.generateCertificate(
                new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode(secret.getData().get("tls.crt"))));
        java.security.cert.X509Certificate trusted = (java.security.cert.X509Certificate) x509.generateCertificate(
                new java.io.ByteArrayInputStream(java.util.Base64.getDecoder().decode((String) spec.get("caBundle"))));
        served.verify(trusted.getPublicKey()); // throws unless the APIService's CA signed it
        assertThat(served.getSubjectAlternativeNames().stream().map(n -> String.valueOf(n.get(1))).toList())
                .contains(service.getMetadata().getName() + "." + service.getMetadata().getNamespace() + ".svc");

        RoleBinding reader = on.all(RoleBinding.class).stream()
                .filter(b -> b.getRoleRef().getName().equals("extension-apiserver-authentication-reader")).findFirst().orElseThrow();
        assertThat(reader.getMetadata().getNamespace()).isEqualTo("kube-system");
        assertThat(reader.getSubjects()).singleElement().satisfies(s -> assertThat(s.getName())
                .isEqualTo(on.one(Deployment.class, "makeroom").getSpec().getTemplate().getSpec().getServiceAccountName()));
        assertThat(on.one(ClusterRole.class, "makeroom-debug").getRules())
                .anySatisfy(r -> assertThat(r.getApiGroups()).containsExactly("debug.makeroom.dev"));
        assertThat(DEFAULTS.ofKind("APIService")).as("off by default").isEmpty();
    }

    @Test
    void common_labels_reach_every_object_and_no_selector() {
        Rendering labelled = Chart.render(Map.of("commonLabels.team", "platform", "scheduler.enabled", true,
                "serviceMonitor.enabled", true));
        assertThat(labelled.objects()).allSatisfy(o -> assertThat(o.getMetadata().getLabels()).as(o.getKind() + " "
                + o.getMetadata().getName()).containsEntry("team", "platform"));
        assertThat(labelled.one(Deployment.class, "makeroom").getSpec().getSelector().getMatchLabels())
                .doesNotContainKey("team");
        assertThatThrownBy(() -> Chart.template(Map.of("commonLabels.team", 3))).hasMessageContaining("commonLabels");
    }

    @Test
    void the_second_scheduler_takes_its_image_as_repository_and_tag_or_one_string_and_has_a_disruption_budget() {
        assertThat(container(Chart.render(Map.of("scheduler.enabled", true, "scheduler.image.repository",
                "mirror.example/kube-scheduler", "scheduler.image.tag", "v1.31.4")).one(Deployment.class,
                "makeroom-scheduler")).getImage()).isEqualTo("mirror.example/kube-scheduler:v1.31.4");
        assertThat(container(Chart.render(Map.of("scheduler.enabled", true, "scheduler.image",
                "registry.k8s.io/kube-scheduler:v1.30.2")).one(Deployment.class, "makeroom-scheduler")).getImage())
                .isEqualTo("registry.k8s.io/kube-scheduler:v1.30.2");
        PodDisruptionBudget budget = ALL_ON.one(PodDisruptionBudget.class, "makeroom-scheduler");
        assertThat(budget.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
        assertThat(ALL_ON.one(Deployment.class, "makeroom-scheduler").getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(budget.getSpec().getSelector().getMatchLabels());
        assertThat(Chart.render(Map.of("scheduler.enabled", true, "scheduler.replicaCount", 1))
                .all(PodDisruptionBudget.class)).extracting(b -> b.getMetadata().getName()).containsExactly("makeroom");
    }

    @Test
    void the_dashboard_ships_as_a_labelled_config_map() throws IOException {
        ConfigMap dashboard = DEFAULTS.one(ConfigMap.class, "makeroom-dashboard");
        assertThat(dashboard.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(dashboard.getData().get("makeroom.json")).isEqualTo(
                Files.readString(Chart.DIR.resolve("dashboards/makeroom.json")).stripTrailing());
    }

    @Test
    void a_queue_configuration_from_values_lands_in_the_config_map_makeroom_watches() {
        String queues = read("examples/queues.yaml");
        Rendering rendering = Chart.render(Map.of("queues.create", true, "queues.config", queues));
        ConfigMap map = rendering.one(ConfigMap.class, configMapNameMakeroomWatches());
        assertThat(map.getData().get("queues.yaml").strip()).isEqualTo(queues.strip());
        assertThat(DEFAULTS.all(ConfigMap.class)).noneMatch(c -> c.getMetadata().getName().equals("makeroom-queues"));
    }

    @Test
    void the_rescheduler_gets_its_writes_only_when_enabled_and_nothing_beyond_them() {
        assertThat(DEFAULTS.all(ClusterRole.class)).noneMatch(r -> r.getMetadata().getName().contains("rescheduler"));
        assertThat(path(makeroomConfig(DEFAULTS), "makeroom.rescheduler")).isNull();
        String policies = read("examples/rescheduler.yaml");
        Rendering on = Chart.render(Map.of("rescheduler.enabled", true, "rescheduler.mode", "evict",
                "rescheduler.create", true, "rescheduler.config", policies));
        ClusterRole writes = on.one(ClusterRole.class, "makeroom-rescheduler");
        assertThat(writes.getRules()).extracting(r -> r.getResources() + " " + r.getVerbs())
                .containsExactlyInAnyOrder("[pods/eviction] [create]", "[nodes] [get, patch]", "[events] [create]");
        Role local = on.one(Role.class, "makeroom-rescheduler");
        assertThat(local.getMetadata().getNamespace()).isEqualTo(Chart.NAMESPACE);
        Map<String, Object> config = makeroomConfig(on);
        assertThat(path(config, "makeroom.rescheduler.enabled")).isEqualTo(true);
        assertThat(path(config, "makeroom.rescheduler.mode")).isEqualTo("evict");
        String lease = (String) path(config, "makeroom.rescheduler.lease");
        assertThat(local.getRules()).anySatisfy(rule -> {
            assertThat(rule.getResources()).containsExactly("leases");
            assertThat(rule.getResourceNames()).containsExactly(lease);
        });
        String configMap = (String) path(config, "makeroom.rescheduler.config-map-name");
        assertThat(local.getRules()).anySatisfy(rule -> assertThat(rule.getResourceNames()).containsExactly(configMap));
        assertThat(on.one(ConfigMap.class, configMap).getData().get("rescheduler.yaml").strip()).isEqualTo(policies.strip());
        assertThat(on.one(ClusterRoleBinding.class, "makeroom-rescheduler").getSubjects()).singleElement()
                .satisfies(s -> assertThat(s.getName()).isEqualTo(makeroomPod(on).getServiceAccountName()));
    }

    /**
     * With the defaults nothing makeroom holds must be kept and no score of its steers anything, so the
     * scheduler calls preempt alone (docs/wiring.md, Which verbs); each feature adds what it needs.
     */
    @Test
    void the_verbs_registered_follow_what_is_switched_on() {
        assertThat(snippet(DEFAULTS)).containsEntry("preemptVerb", "preempt").doesNotContainKeys("filterVerb", "prioritizeVerb");
        assertThat(snippet(Chart.render(Map.of("rescheduler.enabled", true)))).containsEntry("filterVerb", "filter")
                .containsEntry("prioritizeVerb", "prioritize").containsEntry("preemptVerb", "preempt");
        assertThat(snippet(Chart.render(Map.of("preemption.gangHold", "30s")))).containsEntry("filterVerb", "filter")
                .doesNotContainKey("prioritizeVerb");
        assertThat(snippet(Chart.render(Map.of("preemption.gangHold", "0m")))).doesNotContainKeys("filterVerb", "prioritizeVerb");
        assertThat(snippet(Chart.render(Map.of("queues.enabled", true)))).containsEntry("filterVerb", "filter")
                .doesNotContainKey("prioritizeVerb");
        assertThat(snippet(Chart.render(Map.of("extender.shieldScores", true)))).containsEntry("prioritizeVerb", "prioritize")
                .doesNotContainKey("filterVerb");
    }

    /** The rendered entry says which verbs are on and why, for the operator who reads it. */
    @Test
    void the_rendered_entry_says_why_each_verb_is_on_or_off() {
        String defaults = DEFAULTS.one(ConfigMap.class, "makeroom-extender").getData().get("extenders.yaml");
        assertThat(defaults).contains("# verbs: preempt (extender.verbs: auto)")
                .contains("filter: not registered").contains("prioritize: not registered");
        String rescheduling = Chart.render(Map.of("rescheduler.enabled", true)).one(ConfigMap.class, "makeroom-extender")
                .getData().get("extenders.yaml");
        assertThat(rescheduling).contains("# verbs: filter,prioritize,preempt (extender.verbs: auto)")
                .contains("filter: rescheduler landings and defragmentation holds");
    }

    /** Preempt alone costs scheduling nothing (docs/wiring.md, Which verbs); a list names exactly the verbs chosen. */
    @Test
    void the_extender_entry_registers_only_the_verbs_chosen() {
        Map<String, Object> preemptOnly = snippet(Chart.renderWithValuesFile("extender: {verbs: [preempt]}"));
        assertThat(preemptOnly).containsEntry("preemptVerb", "preempt").doesNotContainKeys("filterVerb", "prioritizeVerb");
        Map<String, Object> noScores = snippet(Chart.renderWithValuesFile("extender: {verbs: [filter, preempt]}"));
        assertThat(noScores).containsEntry("filterVerb", "filter").containsEntry("preemptVerb", "preempt")
                .doesNotContainKey("prioritizeVerb");
        Map<String, Object> all = snippet(Chart.renderWithValuesFile("extender: {verbs: [filter, prioritize, preempt]}"));
        assertThat(all).containsKeys("filterVerb", "prioritizeVerb", "preemptVerb");
    }

    @Test
    void the_extender_entry_follows_makeroom_s_path_prefix() {
        Rendering moved = Chart.render(Map.of("extraConfig.makeroom.web.prefix", "/makeroom/v1"));
        assertThat((String) snippet(moved).get("urlPrefix")).endsWith(":8080/makeroom/v1");
        assertThat(path(makeroomConfig(moved), "makeroom.web.prefix")).isEqualTo("/makeroom/v1");
        assertThat((String) snippet(DEFAULTS).get("urlPrefix")).endsWith(":8080/scheduler");
    }

    @Test
    void the_values_schema_turns_away_typos_and_wrong_types_at_install_naming_them() {
        assertThatThrownBy(() -> Chart.template(Map.of("preemption.strategy", "minmal")))
                .hasMessageContaining("strategy");
        assertThatThrownBy(() -> Chart.template(Map.of("replicaCount", "two"))).hasMessageContaining("replicaCount");
        assertThatThrownBy(() -> Chart.template(Map.of("rescheduler.mode", "evicting"))).hasMessageContaining("mode");
        assertThatThrownBy(() -> Chart.template(Map.of("preemption.budget", "fast"))).hasMessageContaining("budget");
        assertThatThrownBy(() -> Chart.template(Map.of("replicaCont", 3))).hasMessageContaining("replicaCont");
        // what the README and the tests use renders
        assertThat(Chart.template(Map.of("preemption.strategy", "kube-default", "rescheduler.mode", "evict",
                "rescheduler.interval", "30s", "extraConfig.makeroom.web.warmup", "0s"))).contains("kube-default");
    }

    // ---- helpers

    static Map<String, Object> snippet(Rendering rendering) {
        Map<String, Object> extenders = yaml(rendering.one(ConfigMap.class, "makeroom-extender").getData().get("extenders.yaml"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> entries = (List<Map<String, Object>>) extenders.get("extenders");
        assertThat(entries).hasSize(1);
        return entries.get(0);
    }

    static Map<String, Object> makeroomConfig(Rendering rendering) {
        return yaml(rendering.one(ConfigMap.class, "makeroom-config").getData().get("application.yaml"));
    }

    @Test
    void the_values_users_expect_reach_the_pod_and_the_monitor() {
        Map<String, Object> values = new java.util.HashMap<>();
        values.put("fullnameOverride", "scheduling-helper");
        values.put("podAnnotations.team", "platform");
        values.put("podLabels.cost-center", "c42");
        values.put("extraArgs[0]", "--logging.level.dev.makeroom=DEBUG");
        values.put("extraEnv[0].name", "TZ");
        values.put("extraEnv[0].value", "UTC");
        values.put("topologySpreadConstraints[0].maxSkew", 1);
        values.put("topologySpreadConstraints[0].topologyKey", "topology.kubernetes.io/zone");
        values.put("topologySpreadConstraints[0].whenUnsatisfiable", "ScheduleAnyway");
        values.put("affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
                + ".matchExpressions[0].key", "pool");
        values.put("affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
                + ".matchExpressions[0].operator", "Exists");
        values.put("podSecurityContext.runAsUser", 1000);
        values.put("securityContext.runAsUser", 1000);
        values.put("serviceMonitor.enabled", true);
        values.put("serviceMonitor.namespace", "monitoring");
        values.put("serviceMonitor.relabelings[0].targetLabel", "team");
        values.put("serviceMonitor.relabelings[0].replacement", "platform");
        Rendering custom = Chart.render(values);

        Deployment deployment = custom.one(Deployment.class, "scheduling-helper");
        var template = deployment.getSpec().getTemplate();
        assertThat(template.getMetadata().getAnnotations()).containsEntry("team", "platform").containsKey("checksum/config");
        assertThat(template.getMetadata().getLabels()).containsEntry("cost-center", "c42")
                .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());
        PodSpec pod = template.getSpec();
        Container makeroom = container(deployment);
        assertThat(makeroom.getArgs()).containsExactly("--logging.level.dev.makeroom=DEBUG");
        assertThat(makeroom.getEnv()).anySatisfy(e -> assertThat(e.getName()).isEqualTo("TZ"))
                .anySatisfy(e -> assertThat(e.getName()).isEqualTo("SPRING_CONFIG_ADDITIONAL_LOCATION"));
        assertThat(pod.getTopologySpreadConstraints()).singleElement()
                .satisfies(c -> assertThat(c.getTopologyKey()).isEqualTo("topology.kubernetes.io/zone"));
        assertThat(pod.getAffinity().getNodeAffinity()).isNotNull();
        assertThat(pod.getAffinity().getPodAntiAffinity()).as("the given affinity replaces the default").isNull();
        // the overrides merge over the hardened defaults instead of replacing them
        assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(makeroom.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
        assertThat(makeroom.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        assertThat(makeroom.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");

        GenericKubernetesResource monitor = (GenericKubernetesResource) custom.ofKind("ServiceMonitor").get(0);
        assertThat(monitor.getMetadata().getNamespace()).isEqualTo("monitoring");
        assertThat(path(monitor.getAdditionalProperties(), "spec.namespaceSelector.matchNames"))
                .isEqualTo(List.of(Chart.NAMESPACE));
        Map<?, ?> endpoint = (Map<?, ?>) ((List<?>) path(monitor.getAdditionalProperties(), "spec.endpoints")).get(0);
        assertThat(endpoint.get("relabelings")).isEqualTo(List.of(Map.of("targetLabel", "team", "replacement", "platform")));
    }

    @Test
    void name_override_renames_the_labels_and_the_objects_alike() {
        Rendering renamed = Chart.render(Map.of("nameOverride", "mr-ext"));
        Deployment deployment = renamed.one(Deployment.class, Chart.RELEASE + "-mr-ext");
        assertThat(deployment.getMetadata().getLabels()).containsEntry("app.kubernetes.io/name", "mr-ext");
        assertThat(deployment.getSpec().getSelector().getMatchLabels()).containsEntry("app.kubernetes.io/name", "mr-ext");
        assertThat(renamed.one(Service.class, Chart.RELEASE + "-mr-ext").getSpec().getSelector())
                .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());
    }

    private String configMapNameMakeroomWatches() {
        return (String) path(makeroomConfig(DEFAULTS), "makeroom.cluster.config-map-name");
    }

    private static PodSpec makeroomPod(Rendering rendering) {
        return rendering.one(Deployment.class, "makeroom").getSpec().getTemplate().getSpec();
    }

    private static int containerPort(Container container, String name) {
        return container.getPorts().stream().filter(p -> name.equals(p.getName())).map(ContainerPort::getContainerPort)
                .findFirst().orElseThrow(() -> new AssertionError("no port " + name + " on " + container.getName()));
    }

    private static Volume volume(PodSpec pod, String name) {
        return pod.getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
    }
}
