package dev.makeroom.web;

import dev.makeroom.support.Fixtures;
import dev.makeroom.support.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A newer kube-scheduler sends the same verbs with fields the captured 1.26 bodies lack: fields of
 * newer Pod and Node APIs (pod-level resource claims, scheduling gates, user namespaces, resize
 * status, node features and runtime handlers), and fields the wire types may grow. Every captured
 * request, with those added, gets the answer it got without them (the node objects echoed back carry
 * them, as sent).
 */
abstract class NewerSchedulerBodies extends FixtureReplaySupport {

    /** Names of the fields added; taken out of the answers before they are compared. */
    private static final List<String> ADDED = List.of("zzFutureField", "schedulingGates", "hostUsers", "resourceClaims",
            "resize", "features", "runtimeHandlers");

    @Test
    void bodies_with_newer_fields_get_the_answers_of_the_captured_ones() {
        for (String verb : List.of("filter", "prioritize", "preempt")) {
            String captured = Fixtures.read(folder(), verb + "-request.json");
            HttpResponse<String> before = client.post("/scheduler/" + verb, captured);
            HttpResponse<String> after = client.post("/scheduler/" + verb, newer(captured));
            assertThat(after.statusCode()).as(verb + ": " + after.body()).isEqualTo(200);
            assertThat(withoutAdded(Json.parse(after.body()))).as(verb).isEqualTo(Json.parse(before.body()));
        }
    }

    /** The body with the newer fields added where a newer scheduler would send them. */
    static String newer(String body) {
        ObjectNode root = (ObjectNode) Json.parse(body);
        root.put("zzFutureField", "a field the wire types may grow");
        if (root.get("Pod") instanceof ObjectNode pod) {
            newerPod(pod);
        }
        if (root.get("Nodes") instanceof ObjectNode nodes && nodes.get("items") instanceof ArrayNode items) {
            items.forEach(node -> {
                ObjectNode status = ((ObjectNode) node).withObjectProperty("status");
                status.putObject("features").put("supplementalGroupsPolicy", true);
                status.putArray("runtimeHandlers").addObject().put("name", "runc");
            });
        }
        for (String victims : List.of("NodeNameToVictims", "NodeNameToMetaVictims")) {
            if (root.get(victims) instanceof ObjectNode byNode) {
                byNode.forEach(entry -> {
                    ((ObjectNode) entry).put("zzFutureField", 1);
                    if (entry.get("Pods") instanceof ArrayNode pods) {
                        pods.forEach(p -> {
                            if (victims.equals("NodeNameToVictims")) {
                                newerPod((ObjectNode) p);
                            } else {
                                ((ObjectNode) p).put("zzFutureField", 1);
                            }
                        });
                    }
                });
            }
        }
        return root.toString();
    }

    private static void newerPod(ObjectNode pod) {
        ObjectNode spec = pod.withObjectProperty("spec");
        spec.putArray("schedulingGates");
        spec.put("hostUsers", true);
        spec.putArray("resourceClaims");
        spec.put("zzFutureField", "x");
        pod.withObjectProperty("status").put("resize", "Proposed");
    }

    private static JsonNode withoutAdded(JsonNode node) {
        if (node instanceof ObjectNode object) {
            ADDED.forEach(object::remove);
            if (object.get("status") instanceof ObjectNode status && status.isEmpty()) {
                object.remove("status");
            }
        }
        node.values().forEach(NewerSchedulerBodies::withoutAdded);
        return node;
    }
}
