package dev.makeroom.web.json;

import dev.makeroom.core.model.NodeInfo;
import dev.makeroom.core.model.NodeTable;
import dev.makeroom.core.model.Resources;
import dev.makeroom.core.preemption.Candidate;
import dev.makeroom.support.property.Gens;
import dev.makeroom.support.property.Gen;
import dev.makeroom.support.property.ForAll;
import dev.makeroom.support.property.Property;
import dev.makeroom.support.property.Provide;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The streaming read of preempt bodies: candidates and their victims' UIDs, Go's key matching, clear errors. */
class PreemptArgsReaderTest {

    private final WireJson json = new WireJson();
    // the snapshot's nodes: their names are Strings of their own, never the ones a body is read into
    private final NodeTable known = NodeTable.of(List.of(node(new String(new char[] {'n', '1'})),
            node(new String(new char[] {'n', '2'}))));

    private PreemptArgsReader.PreemptArgs read(String body) {
        return json.readPreemptArgs(body.getBytes(StandardCharsets.UTF_8), known);
    }

    private static NodeInfo node(String name) {
        return new NodeInfo(name, Map.of(), Resources.of(Map.of("cpu", 1000L)), List.of(), List.of());
    }

    @Test
    void meta_victims_are_read_per_node_in_order() {
        PreemptArgsReader.PreemptArgs args = read("{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"NodeNameToVictims\":null,"
                + "\"NodeNameToMetaVictims\":{\"n2\":{\"Pods\":[{\"UID\":\"a\"},{\"UID\":\"b\"}],\"NumPDBViolations\":1},"
                + "\"n1\":{\"Pods\":[],\"NumPDBViolations\":0}}}");

        assertThat(args.pod().text()).isEqualTo("{\"metadata\":{\"name\":\"p\"}}");
        assertThat(args.candidates()).containsExactly(new Candidate("n2", List.of("a", "b"), 1),
                new Candidate("n1", List.of(), 0));
    }

    /** Later lookups of a known node then find it by identity, without comparing its characters. */
    @Test
    void a_node_the_snapshot_knows_is_named_by_the_snapshots_own_string() {
        List<Candidate> candidates = read("{\"NodeNameToMetaVictims\":{\"n2\":null,\"n9\":null,\"n1\":{\"Pods\":[]}}}")
                .candidates();

        assertThat(candidates).extracting(Candidate::node).containsExactly("n2", "n9", "n1");
        assertThat(candidates.get(0).node()).isSameAs(known.name(known.indexOf("n2")));
        assertThat(candidates.get(2).node()).isSameAs(known.name(known.indexOf("n1")));
    }

    @Test
    void full_victim_pods_give_their_metadata_uid_and_the_rest_is_skipped() {
        PreemptArgsReader.PreemptArgs args = read("{\"pod\":{\"metadata\":{\"name\":\"p\"}},\"nodenametovictims\":{"
                + "\"n1\":{\"pods\":[{\"kind\":\"Pod\",\"metadata\":{\"name\":\"v\",\"UID\":\"u-1\",\"labels\":{\"uid\":\"no\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\"}]}}],\"numpdbviolations\":null,\"New\":[1]}}}");

        assertThat(args.candidates()).containsExactly(new Candidate("n1", List.of("u-1"), 0));
    }

    @Test
    void meta_victims_win_over_full_ones_and_null_maps_mean_none_given() {
        assertThat(read("{\"NodeNameToVictims\":{\"full\":null},\"NodeNameToMetaVictims\":{\"meta\":null}}").candidates())
                .containsExactly(new Candidate("meta", List.of(), 0));
        assertThat(read("{\"NodeNameToVictims\":{\"full\":null},\"NodeNameToMetaVictims\":null}").candidates())
                .containsExactly(new Candidate("full", List.of(), 0));
        assertThat(read("{\"Pod\":null,\"NodeNameToMetaVictims\":null}").candidates()).isNull();
    }

    @Test
    void values_of_the_wrong_kind_are_named_where_they_are() {
        assertThatThrownBy(() -> read("{\"NodeNameToMetaVictims\":[1]}")).isInstanceOf(BadRequestException.class)
                .hasMessage("invalid request at NodeNameToMetaVictims: expected an object of node names to victims, found ARRAY");
        assertThatThrownBy(() -> read("{\"NodeNameToMetaVictims\":{\"n\":{\"Pods\":[{\"UID\":5}]}}}"))
                .hasMessage("invalid request at NodeNameToMetaVictims.n.Pods[0].UID: expected a string, found NUMBER");
        assertThatThrownBy(() -> read("{\"NodeNameToMetaVictims\":{\"n\":{\"NumPDBViolations\":\"2\"}}}"))
                .hasMessage("invalid request at NodeNameToMetaVictims.n.NumPDBViolations: expected a whole number, found STRING");
        assertThatThrownBy(() -> read("{\"NodeNameToVictims\":{\"n\":{\"Pods\":[{\"metadata\":\"x\"}]}}}"))
                .hasMessage("invalid request at NodeNameToVictims.n.Pods[0].metadata: expected an object, found STRING");
        assertThatThrownBy(() -> read("{\"NodeNameToMetaVictims\":{\"n\":{\"Pods\":[null]}}}"))
                .hasMessage("NodeNameToMetaVictims.n.Pods[0] has no UID");
        assertThatThrownBy(() -> read("{\"NodeNameToMetaVictims\":{\"n\":null,\"n\":null}}"))
                .hasMessageStartingWith("malformed JSON");
        assertThatThrownBy(() -> read("{\"NodeNameToMetaVictims\":{}} {}")).hasMessageStartingWith("malformed JSON");
    }

    @Test
    void the_pod_is_copied_out_as_the_same_json_whatever_its_escapes_numbers_and_nesting() {
        String pod = "{\"metadata\":{\"name\":\"p\\u00e9\\\"q\",\"annotations\":{\"a\":\"\\n\"}},"
                + "\"spec\":{\"priority\":-2147483648,\"terminationGracePeriodSeconds\":9223372036854775807,"
                + "\"overhead\":{\"cpu\":1.50},\"containers\":[{\"name\":\"c\",\"args\":[null,true,[]]}]}}";

        RawJson copied = read("{\"NodeNameToMetaVictims\":{}, \"Pod\" : " + pod + "}").pod();

        JsonMapper tree = JsonMapper.builder().build();
        assertThat(copied.isObject()).isTrue();
        assertThat(tree.readTree(copied.text())).isEqualTo(tree.readTree(pod));
        assertThat(read("{\"Pod\":\"text\",\"NodeNameToMetaVictims\":{}}").pod().isObject()).isFalse();
    }

    /** Read as it arrives from the socket: a few bytes at a time reads as the whole body does. */
    @Test
    void a_body_arriving_in_small_pieces_reads_as_one_in_hand() {
        String body = "{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"NodeNameToVictims\":{\"n1\":{\"Pods\":["
                + "{\"metadata\":{\"name\":\"v\",\"uid\":\"u-1\"}}],\"NumPDBViolations\":2},\"n2\":null}}";
        InputStream trickle = new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 3));
            }
        };

        PreemptArgsReader.PreemptArgs args = json.readPreemptArgs(trickle, known);

        assertThat(args.pod().text()).isEqualTo(read(body).pod().text()).isEqualTo("{\"metadata\":{\"name\":\"p\"}}");
        assertThat(args.candidates()).isEqualTo(read(body).candidates())
                .containsExactly(new Candidate("n1", List.of("u-1"), 2), new Candidate("n2", List.of(), 0));
    }

    /**
     * A scheduler that is not cache-capable sends whole victim pods: megabytes of small objects,
     * read only for their UIDs. Read as a stream and its keys checked without a set per object,
     * such a body costs next to nothing more than the same victims named by UID alone (holding the
     * body whole, or Jackson's own duplicate check, costs more than its size).
     */
    @Test
    void whole_victim_pods_cost_next_to_nothing_beyond_their_uids() {
        byte[] full = victimsBody(false);
        byte[] meta = victimsBody(true);

        long fullCost = allocatedReading(full);
        long metaCost = allocatedReading(meta);

        assertThat(full.length - meta.length).isGreaterThan(1_000_000);
        assertThat(fullCost - metaCost).as("bytes allocated beyond the UIDs' for %d bytes of victim pods",
                full.length - meta.length).isLessThan((full.length - meta.length) / 20);
    }

    private long allocatedReading(byte[] body) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 3; i++) { // classes loaded, code compiled enough, Jackson's buffers made
            json.readPreemptArgs(new ByteArrayInputStream(body), known);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        PreemptArgsReader.PreemptArgs args = json.readPreemptArgs(new ByteArrayInputStream(body), known);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(args.candidates()).hasSize(500).allSatisfy(c -> assertThat(c.hintedVictimUids()).hasSize(4));
        return allocated;
    }

    /** 500 nodes, four victims each: as whole pods (a ReplicaSet's, with labels, owner, containers) or by UID. */
    private static byte[] victimsBody(boolean meta) {
        StringBuilder body = new StringBuilder("{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"")
                .append(meta ? "NodeNameToMetaVictims" : "NodeNameToVictims").append("\":{");
        for (int node = 0; node < 500; node++) {
            body.append(node == 0 ? "" : ",").append("\"node-").append(node).append("\":{\"Pods\":[");
            for (int v = 0; v < 4; v++) {
                String uid = "u-" + node + "-" + v;
                body.append(v == 0 ? "" : ",").append(meta ? "{\"UID\":\"" + uid + "\"}" : """
                        {"apiVersion":"v1","kind":"Pod","metadata":{"labels":{"app":"filler-%1$d","tier":"batch"},\
                        "name":"filler-%1$d-%2$d","namespace":"team-fill","ownerReferences":[{"apiVersion":"apps/v1",\
                        "kind":"ReplicaSet","controller":true,"name":"filler-%1$d","uid":"owner-%1$d"}],\
                        "resourceVersion":"100%1$d%2$d","uid":"%3$s"},"spec":{"containers":[{"image":\
                        "registry.example.com/filler:1","name":"main","resources":{"requests":{"cpu":"250m",\
                        "memory":"512Mi"}}}],"nodeName":"node-%1$d","priority":0},"status":{"phase":"Running",\
                        "conditions":[{"type":"Ready","status":"True"}],"startTime":"2026-11-20T08:00:00Z"}}\
                        """.formatted(node, v, uid));
            }
            body.append("],\"NumPDBViolations\":0}");
        }
        return body.append("}}").toString().getBytes(StandardCharsets.UTF_8);
    }

    record Victims(String node, List<String> uids, long violations, boolean meta) {
    }

    @Provide
    Gen<List<Victims>> bodies() {
        Gen<String> names = Gens.strings().withCharRange('a', 'z').withChars('-', 'é', '"', '\\')
                .ofMinLength(1).ofMaxLength(6);
        return Gens.combine(names, names.list().ofMaxSize(4), Gens.longs().between(0, 3),
                Gens.of(true, false)).as(Victims::new).list().ofMaxSize(6).uniqueElements(Victims::node);
    }

    /** Whatever the scheduler sends is read as Jackson's tree reads it, key case and form aside. */
    @Property(tries = 300)
    void the_streaming_read_agrees_with_a_tree_read(@ForAll("bodies") List<Victims> nodes,
                                                    @ForAll boolean meta, @ForAll boolean lowerCaseKeys) {
        StringBuilder body = new StringBuilder("{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"")
                .append(meta ? "NodeNameToMetaVictims" : "NodeNameToVictims").append("\":{");
        for (int i = 0; i < nodes.size(); i++) {
            Victims v = nodes.get(i);
            body.append(i == 0 ? "" : ",").append(quoted(v.node())).append(":{\"Pods\":[");
            for (int k = 0; k < v.uids().size(); k++) {
                body.append(k == 0 ? "" : ",").append(meta ? "{\"UID\":" + quoted(v.uids().get(k)) + "}"
                        : "{\"metadata\":{\"name\":\"x\",\"uid\":" + quoted(v.uids().get(k)) + "},\"spec\":{}}");
            }
            body.append("],\"NumPDBViolations\":").append(v.violations()).append('}');
        }
        String text = body.append("}}").toString();
        if (lowerCaseKeys) {
            text = text.replace("\"Pods\"", "\"pods\"").replace("NumPDBViolations", "numPDBviolations");
        }

        assertThat(read(text).candidates()).isEqualTo(treeRead(text, meta));
    }

    private static List<Candidate> treeRead(String text, boolean meta) {
        JsonNode map = JsonMapper.builder().build().readTree(text).get(meta ? "NodeNameToMetaVictims" : "NodeNameToVictims");
        List<Candidate> candidates = new ArrayList<>();
        for (Map.Entry<String, JsonNode> node : map.properties()) {
            JsonNode victims = node.getValue();
            JsonNode pods = victims.has("Pods") ? victims.get("Pods") : victims.get("pods");
            JsonNode violations = victims.has("NumPDBViolations") ? victims.get("NumPDBViolations")
                    : victims.get("numPDBviolations");
            List<String> uids = new ArrayList<>();
            pods.forEach(p -> uids.add(meta ? p.get("UID").asString() : p.get("metadata").get("uid").asString()));
            candidates.add(new Candidate(node.getKey(), uids, violations.asLong()));
        }
        return candidates;
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
