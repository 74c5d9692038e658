package dev.makeroom.ship;

import dev.makeroom.support.AggregatedMakeroom;
import dev.makeroom.support.ApiServerStandIn;
import dev.makeroom.support.ExternalTool;
import dev.makeroom.support.Json;
import dev.makeroom.support.TestPki;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kubectl plugin (plugin/kubectl-makeroom) run as an operator runs it: bash, the real kubectl, a
 * kubeconfig with the operator's token, and makeroom behind an aggregation layer ({@link ApiServerStandIn}
 * stands in for the kube-apiserver; the same commands against real 1.26 and 1.36 API servers are in
 * docs/kubectl-plugin.md). Every command answers what the debug API answers, errors read as kubectl's
 * own, and every route the plugin calls is one the chart's ClusterRole lets the API server proxy.
 */
class KubectlPluginTest extends AggregatedMakeroom {

    private static final Path PLUGIN = Path.of("plugin/kubectl-makeroom");
    private static ApiServerStandIn apiServer;
    private static Path dir;

    record Run(int exit, String out, String err) {
    }

    /** Each test skipped, and reported so, where kubectl is missing (failed under CI). */
    @BeforeEach
    void needsKubectl() {
        ExternalTool.needed(ExternalTool.onPath("kubectl"), "kubectl", "apt-get install kubectl, or kubernetes-client on bookworm");
    }

    @BeforeAll
    static void standIn() throws Exception {
        apiServer = new ApiServerStandIn(TestPki.authority("kubernetes-ca"), FRONT_PROXY, SERVING_CA.certificate(), PORT);
        dir = Files.createTempDirectory("makeroom-plugin");
        for (String user : List.of("alice", "bob")) {
            Files.writeString(dir.resolve(user + ".kubeconfig"), apiServer.kubeconfig(user));
        }
        Files.writeString(dir.resolve("mine.yaml"), String.join("\n", "apiVersion: v1", "kind: Pod", "metadata:",
                "  name: mine", "  namespace: default", "spec:", "  priorityClassName: critical-high", "  containers:",
                "  - name: c", "    image: x", "    resources:", "      requests:", "        cpu: 500m", ""));
    }

    @AfterAll
    static void stopStandIn() {
        apiServer.close();
    }

    private static Run plugin(String user, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", PLUGIN.toString()));
        command.addAll(List.of(args));
        command.add("--kubeconfig=" + dir.resolve(user + ".kubeconfig"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("KUBECONFIG");
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kubectl makeroom %s ended", String.join(" ", args)).isTrue();
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    /** What the management port answers alice directly. */
    private String direct(String method, String path, String body, String type) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + path))
                .header("Authorization", "Bearer alice-token")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (type != null) {
            request.header("Content-Type", type);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void why_prints_the_debug_apis_explanation_of_a_pod_in_the_view_or_in_a_file() throws Exception {
        Run why = plugin("alice", "why", "default/critical-job");
        assertThat(why.exit()).as(why.err()).isZero();
        assertThat(why.out()).isEqualTo(direct("GET", "/debug/why?pod=default/critical-job", null, null))
                .startsWith("default/critical-job: priority").contains("0/4 nodes are available");
        Run mine = plugin("alice", "why", "-f", dir.resolve("mine.yaml").toString());
        assertThat(mine.exit()).as(mine.err()).isZero();
        assertThat(mine.out()).isEqualTo(direct("POST", "/debug/why", Files.readString(dir.resolve("mine.yaml")),
                "application/yaml")).startsWith("default/mine: priority").contains("fits without preemption on node-d");
    }

    @Test
    void every_command_answers_json_through_routes_the_charts_role_lets_the_api_server_proxy() throws Exception {
        Path policies = Path.of("examples/policies.yaml").toAbsolutePath();
        List<List<String>> commands = List.of(List.of("simulate", "default/critical-job"),
                List.of("simulate", "-f", dir.resolve("mine.yaml").toString()), List.of("plan"),
                List.of("plan", "--pod", "default/critical-job"), List.of("plan", "-f", policies.toString()),
                List.of("nodes"), List.of("nodes", "node-a"), List.of("pending"), List.of("queues"), List.of("decisions"),
                List.of("decisions", "default/critical-job"), List.of("rescheduler"), List.of("config"));
        assertThat(plugin("alice", "why", "default/critical-job").exit()).isZero();
        for (List<String> command : commands) {
            Run run = plugin("alice", command.toArray(String[]::new));
            assertThat(run.exit()).as("%s: %s", command, run.err()).isZero();
            assertThat(Json.parse(run.out())).as("%s answers JSON", command).isNotNull();
        }
        Run mine = plugin("alice", "simulate", "-f", dir.resolve("mine.yaml").toString());
        assertThat(mine.out()).contains("\"pod\":\"default/mine\"").contains("\"fitsOn\":[\"node-d\"]");

        pageThroughKubectlProxy();

        Set<String> routes = new TreeSet<>();
        apiServer.proxied().forEach(call -> routes.add(call.replaceAll("^\\S+ /apis/debug\\.makeroom\\.dev/v1/([^/?]+).*", "$1")));
        ClusterRole operators = Chart.render(Map.of("debugApi.aggregated.enabled", true)).one(ClusterRole.class, "makeroom-debug");
        List<String> granted = operators.getRules().stream().filter(r -> r.getApiGroups() != null
                && r.getApiGroups().contains("debug.makeroom.dev")).flatMap(r -> r.getResources().stream()).toList();
        assertThat(granted).as("the role grants what the plugin asks, and no more")
                .containsExactlyInAnyOrderElementsOf(routes);
        assertThat(operators.getRules()).filteredOn(r -> r.getApiGroups() != null && r.getApiGroups().contains("debug.makeroom.dev"))
                .flatExtracting(PolicyRule::getVerbs).containsExactlyInAnyOrder("get", "list", "create");
    }

    /** {@code kubectl makeroom page}: the page and its data through kubectl proxy, the API server and the aggregation port. */
    private void pageThroughKubectlProxy() throws Exception {
        int port = dev.makeroom.support.FreePort.next();
        ProcessBuilder builder = new ProcessBuilder("bash", PLUGIN.toString(), "page", "--port", String.valueOf(port),
                "--kubeconfig=" + dir.resolve("alice.kubeconfig"));
        builder.environment().remove("KUBECONFIG");
        Path out = Files.createTempFile(dir, "page", ".txt");
        Process proxy = builder.redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            String base = "http://127.0.0.1:" + port + "/apis/debug.makeroom.dev/v1/";
            // HTTP/1.1 as a browser asks: the JDK's default offers an h2c upgrade, which kubectl proxy refuses
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            try {
            dev.makeroom.support.Await.until("kubectl proxy serves", java.time.Duration.ofSeconds(30), () -> {
                try {
                    return http.send(HttpRequest.newBuilder(URI.create(base + "page/")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                } catch (IOException e) {
                    return false;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; it said: " + Files.readString(out), e);
            }
            assertThat(Files.readString(out)).contains(base + "page/");
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "page/")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).contains("<script src=\"app.js\">");
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "page/app.js")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).contains("function route()");
            // what the page asks ("../nodes" from page/), as alice
            assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "nodes")).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).isEqualTo(direct("GET", "/debug/nodes", null, null));
        } finally {
            proxy.destroy();
            proxy.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void errors_read_as_kubectls_own_and_usage_errors_exit_2() throws Exception {
        Run missing = plugin("alice", "why", "default/nobody");
        assertThat(missing.exit()).isEqualTo(1);
        assertThat(missing.err()).contains("Error from server (NotFound): no pod default/nobody in the view");
        Run bob = plugin("bob", "nodes");
        assertThat(bob.exit()).isEqualTo(1);
        assertThat(bob.err()).contains("Error from server (Forbidden): bob may not get /debug/nodes");
        Run notARef = plugin("alice", "why", "critical-job");
        assertThat(notARef.exit()).isEqualTo(2);
        assertThat(notARef.err()).contains("'critical-job' is not namespace/name");
        Run both = plugin("alice", "why", "default/critical-job", "-f", "x.yaml");
        assertThat(both.exit()).isEqualTo(2);
        Run unknown = plugin("alice", "frobnicate");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("no command 'frobnicate'").contains("Usage: kubectl makeroom");
        Run help = plugin("alice", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("why <namespace>/<pod>");
        assertThat(new String(Files.readAllBytes(PLUGIN), StandardCharsets.UTF_8)).startsWith("#!/usr/bin/env bash");
        assertThat(Files.isExecutable(PLUGIN)).as("kubectl finds only executable plugins").isTrue();
    }
}
