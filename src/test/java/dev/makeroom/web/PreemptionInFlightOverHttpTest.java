package dev.makeroom.web;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import tools.jackson.databind.JsonNode;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a Kubernetes 1.36 scheduler did to makeroom, replayed over HTTP: preempt for a pod, then,
 * while the victim terminates, preempt again for the same pod with only the other node as a
 * candidate (the pod's nominated node not in the body). The second call gets no victims (the answer
 * that leaves the scheduler's nomination alone); once the victim is gone the pod may preempt again.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PreemptionInFlightOverHttpTest {

    /** node-a: one low-priority pod fills it; node-b: one mid-priority pod fills it. */
    static final class SteppedView implements ClusterView {
        volatile ClusterSnapshot current = state(false, false);

        static ClusterSnapshot state(boolean lowTerminating, boolean lowGone) {
            ClusterSnapshot.Builder b = ClusterSnapshot.builder()
                    .node("node-a", Map.of(), Resources.of("cpu", 4000, "pods", 110))
                    .node("node-b", Map.of(), Resources.of("cpu", 4000, "pods", 110))
                    .pod(pod("mid", "node-b", 50, false));
            return lowGone ? b.build() : b.pod(pod("low", "node-a", 1, lowTerminating)).build();
        }

        private static PodInfo pod(String name, String node, int priority, boolean terminating) {
            return PodInfo.builder("uid-" + name).name(name).namespace("default").nodeName(node).priority(priority)
                    .requests(Resources.of("cpu", 4000)).qos(QosClass.GUARANTEED).terminating(terminating)
                    .terminationGracePeriodSeconds(30).build();
        }

        @Override
        public ClusterSnapshot snapshot() {
            return current;
        }

        @Override
        public boolean ready() {
            return true;
        }
    }

    @TestConfiguration
    static class Stepped {
        @Bean
        @Primary
        SteppedView steppedView() {
            return new SteppedView();
        }
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    SteppedView view;

    private static final String POD = "{\"metadata\":{\"name\":\"urgent\",\"namespace\":\"default\",\"uid\":\"uid-urgent\"},"
            + "\"spec\":{\"priority\":100,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]}}";

    private JsonNode preempt(ExtenderClient http, String candidates) {
        return Json.parse(http.post("/scheduler/preempt", "{\"Pod\":" + POD + ",\"NodeNameToMetaVictims\":{"
                + candidates + "}}").body()).get("NodeNameToMetaVictims");
    }

    @Test
    void a_second_preempt_while_the_first_victim_terminates_evicts_no_one_else() {
        ExtenderClient http = new ExtenderClient(port);
        String both = "\"node-a\":{\"Pods\":[{\"UID\":\"uid-low\"}]},\"node-b\":{\"Pods\":[{\"UID\":\"uid-mid\"}]}";

        JsonNode first = preempt(http, both);
        assertThat(first.propertyNames()).containsExactly("node-a");

        view.current = SteppedView.state(true, false);
        JsonNode again = preempt(http, "\"node-b\":{\"Pods\":[{\"UID\":\"uid-mid\"}]}");
        assertThat(again.size()).as("no victims while low terminates: %s", again).isZero();
        JsonNode decisions = Json.parse(new ExtenderClient(managementPort)
                .get("/debug/decisions?pod=default/urgent").body());
        assertThat(decisions.toString()).contains("its preemption on node-a is in flight: waiting for default/low to terminate");

        view.current = SteppedView.state(true, true);
        JsonNode afterwards = preempt(http, "\"node-b\":{\"Pods\":[{\"UID\":\"uid-mid\"}]}");
        assertThat(afterwards.propertyNames()).as("the victim gone, the pod is no longer waiting for it")
                .containsExactly("node-b");
    }
}
