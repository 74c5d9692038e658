package dev.makeroom.web;

import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The topology-spread case seen with a real kube-scheduler, through the preempt verb over HTTP:
 * the scheduler offers node a with the web pod as its victim and b with a middle-priority pod.
 * makeroom must answer a and the web pod (evicting a's other pod would leave the skew at 2); for a
 * pod with a volume makeroom does not model, it keeps the scheduler's own victims.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties =
        "makeroom.cluster.snapshot=src/test/resources/clusters/spread.yaml")
class InterPodConstraintsOverHttpTest {

    private static final String WEB_OLD = "00000000-0000-4000-8000-00000000a001";
    private static final String BATCH_NEW = "00000000-0000-4000-8000-00000000a002";
    private static final String MID_1 = "00000000-0000-4000-8000-00000000b001";

    @LocalServerPort
    int port;

    private JsonNode preempt(String extraSpec, String victimOnA) {
        String body = """
                {"Pod": {"metadata": {"name": "web-new", "namespace": "default", "uid": "00000000-0000-4000-8000-00000000c001",
                   "labels": {"app": "web"}},
                 "spec": {"priority": 100, %s
                   "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "kubernetes.io/hostname",
                     "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}}],
                   "containers": [{"name": "c", "resources": {"requests": {"cpu": "1"}}}]}},
                 "NodeNameToMetaVictims": {"a": {"Pods": [{"UID": "%s"}], "NumPDBViolations": 0},
                                           "b": {"Pods": [{"UID": "%s"}], "NumPDBViolations": 0}}}
                """.formatted(extraSpec, victimOnA, MID_1);
        HttpResponse<String> response = new ExtenderClient(port).post("/scheduler/preempt", body);
        assertThat(response.statusCode()).isEqualTo(200);
        return Json.parse(response.body()).get("NodeNameToMetaVictims");
    }

    @Test
    void the_web_pod_goes_where_the_spread_needs_it_gone() {
        JsonNode answer = preempt("", WEB_OLD);

        assertThat(answer.propertyNames()).containsExactly("a");
        assertThat(answer.get("a").get("Pods")).hasSize(1);
        assertThat(answer.get("a").get("Pods").get(0).get("UID").asString()).isEqualTo(WEB_OLD);
    }

    @Test
    void with_a_volume_makeroom_does_not_model_the_schedulers_own_victims_are_kept() {
        JsonNode answer = preempt("\"volumes\": [{\"name\": \"data\", \"persistentVolumeClaim\": {\"claimName\": \"d\"}}],",
                BATCH_NEW);

        assertThat(answer.propertyNames()).containsExactly("a");
        assertThat(answer.get("a").get("Pods").get(0).get("UID").asString()).isEqualTo(BATCH_NEW);
    }
}
