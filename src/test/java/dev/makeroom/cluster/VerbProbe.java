package dev.makeroom.cluster;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.PodInfo;
import dev.makeroom.support.ExtenderClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Asks a running makeroom all three verbs about the README's pending pods over every node of a
 * snapshot, as the scheduler would (node names; in preempt every pod of a node as its victims),
 * and returns the answers in order: the same view must give the same answers.
 */
final class VerbProbe {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> EXAMPLES = List.of("filter", "prioritize", "preempt");

    private final ExtenderClient http;
    private final List<JsonNode> pods = new ArrayList<>();

    VerbProbe(int port) throws IOException {
        this.http = new ExtenderClient(port);
        for (String example : EXAMPLES) {
            pods.add(JSON.readTree(Files.readString(Path.of("examples/requests/" + example + ".json"))).get("Pod"));
        }
    }

    List<String> answers(ClusterSnapshot snapshot) {
        List<NodeInfo> nodes = snapshot.nodes().stream().sorted(Comparator.comparing(NodeInfo::name)).toList();
        List<String> answers = new ArrayList<>();
        for (JsonNode pod : pods) {
            ObjectNode names = JSON.createObjectNode().set("Pod", pod);
            ArrayNode list = names.putArray("NodeNames");
            nodes.forEach(n -> list.add(n.name()));
            answers.add(call("filter", names));
            answers.add(call("prioritize", names));

            ObjectNode preempt = JSON.createObjectNode().set("Pod", pod);
            ObjectNode victims = preempt.putObject("NodeNameToMetaVictims");
            for (NodeInfo node : nodes) {
                ObjectNode entry = victims.putObject(node.name());
                ArrayNode uids = entry.putArray("Pods");
                node.pods().stream().map(PodInfo::uid).forEach(uid -> uids.addObject().put("UID", uid));
                entry.put("NumPDBViolations", 0);
            }
            answers.add(call("preempt", preempt));
        }
        return answers;
    }

    private String call(String verb, JsonNode body) {
        HttpResponse<String> response = http.post("/scheduler/" + verb, JSON.writeValueAsString(body));
        assertThat(response.statusCode()).as(verb + ": " + response.body()).isEqualTo(200);
        return verb + " " + response.body();
    }
}
