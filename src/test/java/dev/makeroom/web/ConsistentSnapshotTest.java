package dev.makeroom.web;

import dev.makeroom.core.model.ClusterView;
import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.core.model.QosClass;
import dev.makeroom.core.model.Resources;
import dev.makeroom.support.ExtenderClient;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many parallel requests while the view flips, as fast as it can, between two states that move
 * every pod from one node to the other. Each answer must match exactly one of the two states:
 * a request that mixed them (nodes from one, pods from the other) would show.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "makeroom.preemption.answer=all")
class ConsistentSnapshotTest {

    /** State A: a-pods fill n1, n2 is empty. State B: b-pods fill n2, n1 is empty. */
    static final class FlippingView implements ClusterView {
        private volatile ClusterSnapshot current;
        final AtomicLong flips = new AtomicLong();

        FlippingView() {
            current = ClusterSnapshot.builder()
                    .node("n1", Map.of(), Resources.of("cpu", 4000, "pods", 110))
                    .node("n2", Map.of(), Resources.of("cpu", 4000, "pods", 110))
                    .build();
            current = fill(current, "a", "n1");
        }

        private static ClusterSnapshot fill(ClusterSnapshot base, String set, String node) {
            ClusterSnapshot.Change change = base.change();
            List<PodInfo> pods = new ArrayList<>();
            for (int i = 1; i <= 4; i++) {
                PodInfo pod = PodInfo.builder(set + "-" + i).name(set + "-" + i).nodeName(node).priority(1)
                        .requests(Resources.of("cpu", 1000)).qos(QosClass.GUARANTEED).resourceVersion(i).build();
                pods.add(pod);
                change.putPod(pod);
            }
            NodeInfo old = base.node(node);
            return change.putNode(new NodeInfo(node, Map.of(), old.allocatable(), pods, List.of())).build();
        }

        private static ClusterSnapshot empty(ClusterSnapshot base, String set, String node) {
            ClusterSnapshot.Change change = base.change();
            for (int i = 1; i <= 4; i++) {
                change.removePod(set + "-" + i);
            }
            NodeInfo old = base.node(node);
            return change.putNode(new NodeInfo(node, Map.of(), old.allocatable(), List.of(), List.of())).build();
        }

        void flip() {
            boolean inA = current.pod("a-1") != null;
            current = inA ? fill(empty(current, "a", "n1"), "b", "n2") : fill(empty(current, "b", "n2"), "a", "n1");
            flips.incrementAndGet();
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
    static class Flipping {
        @Bean
        @Primary
        FlippingView flippingView() {
            return new FlippingView();
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    FlippingView view;

    private static final String POD = "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"p\"},"
            + "\"spec\":{\"priority\":10,\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]}}";

    @Test
    void every_answer_comes_from_one_state() throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        Thread flipper = new Thread(() -> {
            while (running.get()) {
                view.flip();
            }
        });
        flipper.start();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        List<Future<?>> work = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            work.add(clients.submit(() -> {
                ExtenderClient http = new ExtenderClient(port);
                for (int i = 0; i < 40; i++) {
                    checkPrioritize(Json.parse(http.post("/scheduler/prioritize",
                            "{\"Pod\":" + POD + ",\"NodeNames\":[\"n1\",\"n2\"]}").body()));
                    checkPreempt(Json.parse(http.post("/scheduler/preempt",
                            "{\"Pod\":" + POD + ",\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[]},\"n2\":{\"Pods\":[]}}}").body()));
                }
                return null;
            }));
        }
        for (Future<?> f : work) {
            f.get(120, TimeUnit.SECONDS);
        }
        running.set(false);
        flipper.join();
        clients.shutdown();
        assertThat(view.flips.get()).as("the view changed while requests ran").isGreaterThan(100);
    }

    /** A: n2 scores, n1 is full (0). B: n1 scores, n2 is full. Never both, never neither. */
    private static void checkPrioritize(JsonNode answer) {
        List<String> scoring = new ArrayList<>();
        answer.forEach(entry -> {
            if (entry.get("Score").asInt() > 0) {
                scoring.add(entry.get("Host").asString());
            }
        });
        assertThat(answer.size()).isEqualTo(2);
        assertThat(scoring).hasSize(1);
    }

    /** A: victims are two a-pods on n1. B: two b-pods on n2. Never both nodes, never mixed. */
    private static void checkPreempt(JsonNode answer) {
        JsonNode byNode = answer.get("NodeNameToMetaVictims");
        assertThat(byNode.size()).isEqualTo(1);
        String node = byNode.propertyNames().iterator().next();
        String set = node.equals("n1") ? "a" : "b";
        List<String> victims = new ArrayList<>();
        byNode.get(node).get("Pods").forEach(p -> victims.add(p.get("UID").asString()));
        assertThat(victims).hasSize(2).allMatch(uid -> uid.startsWith(set + "-"));
        assertThat(Set.copyOf(victims)).hasSize(2);
    }
}
