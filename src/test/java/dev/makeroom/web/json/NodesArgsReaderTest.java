package dev.makeroom.web.json;

import dev.makeroom.core.model.ClusterSnapshot;
import dev.makeroom.core.model.Resources;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The streaming read of filter and prioritize bodies: names, raw ranges, Go's key matching. */
class NodesArgsReaderTest {

    private final WireJson json = new WireJson();

    private NodesArgs read(String body) {
        return json.readNodesArgs(body.getBytes(StandardCharsets.UTF_8), ClusterSnapshot.EMPTY.table());
    }

    @Test
    void node_names_are_read_in_order() {
        NodesArgs args = read("{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"Nodes\":null,\"NodeNames\":[\"b\",\"a\",\"ñ-😀\"]}");

        assertThat(args.byName()).isTrue();
        assertThat(args.names()).containsExactly("b", "a", "ñ-😀");
        assertThat(args.pod().text()).isEqualTo("{\"metadata\":{\"name\":\"p\"}}");
    }

    @Test
    void names_of_known_nodes_are_the_snapshots_own_strings() {
        ClusterSnapshot snapshot = ClusterSnapshot.builder().node("node-a", java.util.Map.of(), Resources.NONE)
                .node("nöde-b", java.util.Map.of(), Resources.NONE).build();

        NodesArgs args = json.readNodesArgs("{\"NodeNames\":[\"nöde-b\",\"node-x\",\"node-a\"]}"
                .getBytes(StandardCharsets.UTF_8), snapshot.table());

        assertThat(args.names()).containsExactly("nöde-b", "node-x", "node-a");
        assertThat(args.names().get(0)).isSameAs(snapshot.node("nöde-b").name());
        assertThat(args.names().get(2)).isSameAs(snapshot.node("node-a").name());
        assertThat(snapshot.table().indexOf(args.names().get(1))).isEqualTo(-1);
        assertThat(args.nodes().row(0)).isEqualTo(snapshot.table().indexOf("nöde-b"));
        assertThat(args.nodes().row(1)).isEqualTo(-1);
        assertThat(args.nodes().row(2)).isEqualTo(snapshot.table().indexOf("node-a"));
        assertThat(args.nodes().table()).isSameAs(snapshot.table());
    }

    @Test
    void node_objects_are_kept_byte_for_byte_whatever_their_layout_and_characters() {
        String first = "{ \"metadata\" : { \"labels\": {\"zone\": \"é\"}, \"name\": \"nöde-1\" },\n \"status\": {\"x\": [1, 2.5e3, null]} }";
        String second = "{\"kind\":\"Node\",\"metadata\":{\"name\":\"node-😀\"}}";
        String metadata = "{\"resourceVersion\": \"7\"}";
        NodesArgs args = read("{\n  \"Pod\": {\"metadata\": {\"name\": \"p\"}},\n  \"Nodes\": {\"metadata\": " + metadata
                + ", \"items\": [" + first + " ,\n " + second + "]}\n}\n");

        assertThat(args.byName()).isFalse();
        assertThat(args.names()).containsExactly("nöde-1", "node-😀");
        assertThat(args.items()).extracting(RawJson::text).containsExactly(first, second);
        assertThat(args.listMetadata().text()).isEqualTo(metadata);
    }

    @Test
    void keys_match_in_any_case_as_go_decodes_them_and_unknown_keys_are_skipped() {
        NodesArgs args = read("{\"pod\":{\"metadata\":{\"name\":\"p\"}},\"extra\":[{\"a\":[]}],\"NODES\":{\"Items\":"
                + "[{\"Metadata\":{\"Name\":\"n\"}}]}}");

        assertThat(args.names()).containsExactly("n");
        assertThat(args.pod().isObject()).isTrue();
    }

    @Test
    void node_names_win_over_node_objects_when_both_are_sent() {
        NodesArgs args = read("{\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"x\"}}]},\"NodeNames\":[\"y\"]}");

        assertThat(args.byName()).isTrue();
        assertThat(args.names()).isEqualTo(List.of("y"));
    }

    @Test
    void a_pod_that_is_not_an_object_is_marked_so() {
        assertThat(read("{\"Pod\":\"p\",\"NodeNames\":[]}").pod().isObject()).isFalse();
        assertThat(read("{\"Pod\":null,\"NodeNames\":[]}").pod()).isNull();
    }

    @Test
    void malformed_or_misshapen_bodies_say_what_is_wrong() {
        assertThatThrownBy(() -> read("[1]")).hasMessage("request body must be a JSON object");
        assertThatThrownBy(() -> read("null")).hasMessage("request body is null, expected a JSON object");
        assertThatThrownBy(() -> read("{\"NodeNames\":[\"a\",1]}")).hasMessage("NodeNames[1] must be a node name (a string), found NUMBER");
        assertThatThrownBy(() -> read("{\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"a\"}},7]}}"))
                .hasMessage("Nodes.items[1] has no metadata.name");
        assertThatThrownBy(() -> read("{\"Nodes\":{\"items\":{}}}")).hasMessage("Nodes.items must be an array of v1.Node objects");
        assertThatThrownBy(() -> read("{\"Nodes\":{\"metadata\":[],\"items\":[]}}")).hasMessage("Nodes.metadata must be a JSON object");
        assertThatThrownBy(() -> read("{\"Nodes\":[]}")).hasMessage("Nodes must be a v1.NodeList object");
        assertThatThrownBy(() -> read("{\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"a\"}}")).hasMessageStartingWith("malformed JSON");
        assertThatThrownBy(() -> read("{\"NodeNames\":[]} {}")).hasMessageStartingWith("malformed JSON");
        assertThatThrownBy(() -> read("{\"NodeNames\":[],\"NodeNames\":[]}")).hasMessageStartingWith("malformed JSON: Duplicate");
    }

    @Test
    void a_body_in_another_encoding_than_utf_8_is_refused() {
        byte[] utf16 = "{\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"a\"}}]}}".getBytes(StandardCharsets.UTF_16BE);

        assertThatThrownBy(() -> json.readNodesArgs(utf16, ClusterSnapshot.EMPTY.table())).hasMessage("request body must be UTF-8 JSON");
    }
}
