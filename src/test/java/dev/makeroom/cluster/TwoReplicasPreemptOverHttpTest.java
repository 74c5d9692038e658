package dev.makeroom.cluster;

import dev.makeroom.MakeroomApplication;
import dev.makeroom.support.Await;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.MockApiClients;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two makeroom replicas behind one Service, the scheduler's calls spread over them: once one replica has
 * named victims and the scheduler has acted (the pod nominated, its victims terminating), the other
 * replica names none for the same pod, and says why in simulate, though it never answered that
 * preemption itself; so does the first. Over one mock API holding the demo cluster, through real HTTP.
 */
class TwoReplicasPreemptOverHttpTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static KubernetesMockServer server;
    private static KubernetesClient admin;
    private static String body;
    private static final List<ConfigurableApplicationContext> replicas = new ArrayList<>();

    /** Each replica's client for the shared mock API. */
    @Configuration(proxyBeanMethods = false)
    static class SharedApi {
        @Bean(destroyMethod = "close")
        KubernetesClient kubernetesClient() {
            return MockApiClients.clientFor(server);
        }
    }

    @BeforeAll
    static void twoReplicasOnTheDemoCluster() throws Exception {
        server = FaultyApi.serve(new FaultyApi());
        admin = FaultyApi.admin(server);
        body = DemoClusterOnMockApi.createAndAskPreempt(admin);
        for (int i = 0; i < 2; i++) {
            replicas.add(new SpringApplicationBuilder(MakeroomApplication.class, SharedApi.class).run("--server.port=0",
                    "--management.server.port=0", "--makeroom.cluster.source=kubernetes",
                    "--makeroom.cluster.config-map-namespace=makeroom-system", "--logging.level.root=WARN"));
        }
    }

    @AfterAll
    static void stop() {
        replicas.forEach(ConfigurableApplicationContext::close);
        admin.close();
        MockServers.destroy(server);
    }

    private static ExtenderClient verbs(int replica) {
        return new ExtenderClient(Integer.parseInt(replicas.get(replica).getEnvironment().getProperty("local.server.port")));
    }

    private static ExtenderClient debug(int replica) {
        return new ExtenderClient(Integer.parseInt(replicas.get(replica).getEnvironment().getProperty("local.management.port")));
    }

    /** The victims the answer names, node by node. */
    private static Map<String, List<String>> victims(String answer) throws Exception {
        Map<String, List<String>> named = new java.util.TreeMap<>();
        for (Map.Entry<String, JsonNode> node : JSON.readTree(answer).get("NodeNameToMetaVictims").properties()) {
            List<String> uids = new ArrayList<>();
            node.getValue().get("Pods").forEach(p -> uids.add(p.get("UID").asString()));
            named.put(node.getKey(), uids);
        }
        return named;
    }

    private static String simulated(int replica) throws Exception {
        var answer = debug(replica).post("/debug/simulate", "application/json", "{\"pod\":\"default/critical-job\"}");
        assertThat(answer.statusCode()).isEqualTo(200);
        return answer.body();
    }

    @Test
    void the_other_replica_names_no_second_set_of_victims_while_the_first_terminate() throws Exception {
        for (int i = 0; i < 2; i++) {
            int replica = i;
            Await.until("replica " + i + " is ready", Duration.ofSeconds(30),
                    () -> debug(replica).get("/actuator/health/readiness").statusCode() == 200);
        }
        Map<String, List<String>> first = victims(verbs(0).post("/scheduler/preempt", body).body());
        assertThat(first).as("replica 0 preempts").hasSize(1);
        String node = first.keySet().iterator().next();

        // the scheduler acts on the answer: nominates the pod there, and the victims start terminating
        admin.pods().inNamespace("default").withName("critical-job")
                .editStatus(p -> { p.getStatus().setNominatedNodeName(node); return p; });
        for (Pod victim : admin.pods().inAnyNamespace().list().getItems()) {
            if (first.get(node).contains(victim.getMetadata().getUid())) {
                admin.resource(victim).edit(p -> { p.getMetadata().setFinalizers(List.of("example.com/slow")); return p; });
                admin.resource(victim).delete();
            }
        }
        for (int i = 0; i < 2; i++) {
            int replica = i;
            Await.until("replica " + i + " sees the preemption in flight", Duration.ofSeconds(30),
                    () -> uncheckedSimulated(replica).contains("is in flight"));
        }
        for (int i = 0; i < 2; i++) {
            assertThat(victims(verbs(i).post("/scheduler/preempt", body).body()))
                    .as("replica %d names no second set of victims", i).isEmpty();
        }
        assertThat(simulated(1)).contains("its preemption on " + node + " is in flight: waiting for ");
    }

    private static String uncheckedSimulated(int replica) {
        try {
            return simulated(replica);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
